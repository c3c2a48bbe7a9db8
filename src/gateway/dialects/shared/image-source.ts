/** Image references shared by both dialects: `data:` URLs become inline base64, anything else a URL. */
import type { CanonicalImage } from "../../../ports/canonical.js";

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

export function imageFromUrl(url: string): CanonicalImage {
  const match = DATA_URL.exec(url);
  if (match?.[1] && match[2] !== undefined) {
    return { type: "image", source: { kind: "base64", mediaType: match[1], data: match[2] } };
  }
  return { type: "image", source: { kind: "url", url } };
}

export function imageToDataUrl(image: CanonicalImage): string {
  return image.source.kind === "base64"
    ? `data:${image.source.mediaType};base64,${image.source.data}`
    : image.source.url;
}
