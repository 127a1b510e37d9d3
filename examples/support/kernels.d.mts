export declare const invertImageSource: string;
export declare function kernelProgram(context: import('../../lib').Context, source: string, name: string): Promise<import('../../lib').Program>;
