// Types of terminate-workers.mjs.
export declare function nativeCallLoop(packagePath: string, platformName: string): string;
export declare function terminateWorkersScript(packagePath: string, platformName: string): string;
