// Types of address-policy.mjs (plain JavaScript so that server.mjs can import it too).

export declare const LOOPBACK_ADDRESSES: readonly { readonly address: string; readonly family: 4 | 6 }[];
export declare const bare: (host: string) => string;
export declare function isLoopbackAddress(ip: string): boolean;
export declare const isLoopbackName: (name: string) => boolean;
export declare const isLoopbackHost: (host: string) => boolean;
export declare const originIsLoopback: (url: string) => boolean;
export declare function isLoopbackListenAddress(host: string): boolean;
export declare const isLoopbackRedirectHost: (hostname: string) => boolean;
export declare function addressAllowed(ip: string, loopbackOk: boolean): boolean;
