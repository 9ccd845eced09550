export declare const AIRKEY_PATTERN: RegExp;
export declare function airkeyChecksum(first62: string): string;
export declare function findAirkeyKeys(content: string): Array<{ key: string; range: [number, number] }>;
export declare const messages: { AIRKEY_API_KEY: { en: (props: { HINT: string }) => string } };
type Report = { message: unknown; range: readonly [number, number] };
export declare const creator: {
  messages: typeof messages;
  meta: { id: string; recommended: boolean; type: 'scanner'; supportedContentTypes: Array<'text' | 'binary' | 'all'> };
  create(context: {
    createTranslator: (m: typeof messages) => (id: 'AIRKEY_API_KEY', props: { HINT: string }) => unknown;
    report: (descriptor: Report) => void;
  }): { file(source: { content: string; filePath?: string }): void };
};
export default creator;
