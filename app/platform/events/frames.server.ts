const encoder = new TextEncoder();

/** The bytes of one server-sent event frame; one shared encoder instead of one per stream. */
export const encodeFrame = (text: string): Uint8Array => encoder.encode(text);
