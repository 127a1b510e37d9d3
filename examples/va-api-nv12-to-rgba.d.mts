export declare const nv12ToRgbaSource: string;
