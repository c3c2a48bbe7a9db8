/**
 * What a wire format's error reader takes from an error body or an in-band stream error: the classifier's
 * input (R-EC-1) in the wire's own words, before the provider layer adds the status and headers it saw.
 */
export interface WireErrorDetails {
  message: string;
  code?: string;
  errorType?: string;
  /** Only for in-stream errors that state an HTTP-equivalent status. */
  status?: number;
  /** Reset hints found in the body, expressed as headers the classifier already reads (R-EC-6). */
  hintHeaders?: Readonly<Record<string, string>>;
}
