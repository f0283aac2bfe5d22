/** Types of extension-messages.mjs. */
export function isExtensionKey(key: string): boolean;
export function chromeName(key: string): string;
export function extensionMessages(
  catalogue: Readonly<Record<string, string>>,
): Record<string, { message: string }>;
