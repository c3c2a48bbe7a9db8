/** Image sources in the forms the wire formats accept. */
import type { CanonicalImage } from "../../ports/canonical.js";

export interface Base64Image {
  mediaType: string;
  data: string;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

/** Inline data, also when it arrived as a `data:` URL (OpenAI clients send images that way). */
export function imageAsBase64(image: CanonicalImage): Base64Image | undefined {
  if (image.source.kind === "base64") return { mediaType: image.source.mediaType, data: image.source.data };
  const match = DATA_URL.exec(image.source.url);
  if (!match || match[1] === undefined || match[2] === undefined) return undefined;
  return { mediaType: match[1], data: match[2] };
}

/** An image a client sent as a URL: a `data:` URL becomes inline base64, anything else stays a URL. */
export function imageFromUrl(url: string, detail?: CanonicalImage["detail"]): CanonicalImage {
  const match = DATA_URL.exec(url);
  const source: CanonicalImage["source"] =
    match?.[1] !== undefined && match[2] !== undefined ? { kind: "base64", mediaType: match[1], data: match[2] } : { kind: "url", url };
  return { type: "image", source, ...(detail === undefined ? {} : { detail }) };
}

/** A URL for the image: the remote URL itself, or a `data:` URL built from inline data. */
export function imageAsUrl(image: CanonicalImage): string {
  if (image.source.kind === "url") return image.source.url;
  return `data:${image.source.mediaType};base64,${image.source.data}`;
}

const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
};

/** Best guess of a remote image's media type from its path (Gemini `fileData` requires one). */
export function guessImageMediaType(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: guess from the raw text.
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && MEDIA_TYPES_BY_EXTENSION[extension]) || "image/jpeg";
}
