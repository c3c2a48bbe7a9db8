/** One line of the doctor's report. `fixed` means `--fix` repaired it during this run. */
export type DoctorStatus = "ok" | "fixed" | "problem" | "skipped";

export interface DoctorCheck {
  name: string;
  status: DoctorStatus;
  detail: string;
  /** The file or directory the check is about, when it is about one. */
  path?: string;
}
