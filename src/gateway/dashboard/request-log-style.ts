/** The request log's styles (R-OB-4): the filter row, outcome badges, and the attempt timeline chart. */
export const REQUEST_LOG_STYLE = `
.runs-filters{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;margin:.2rem 0 .6rem;font-size:.85rem;color:#4b5563}
.runs-filters input,.runs-filters select{margin-left:.35rem;padding:.15rem .35rem;border:1px solid #d1d5db;border-radius:4px;font:inherit;max-width:16rem}
.badge.run.succeeded{background:#dcfce7;color:#166534}.badge.run.failed{background:#fee2e2;color:#991b1b}
.badge.run.aborted{background:#f3f4f6;color:#4b5563}.badge.run.content_filter{background:#fef3c7;color:#92400e}
tr.run-row td.moved{color:#92400e;font-weight:600}
button.run-toggle{padding:0 .45rem;min-width:1.8rem}
button.linkish{border:0;background:none;padding:0;color:#1d4ed8;font-family:ui-monospace,monospace;font-size:.85rem;text-decoration:underline dotted}
tr.run-detail td{background:#fafafa}
.run-detail-box{padding:.2rem 0 .3rem}
.timeline{display:block;max-width:100%;height:auto}
.timeline .attempt-label{font-size:12px;fill:#374151}
.timeline .attempt-result{font-size:11px;fill:#374151}.timeline .attempt-result.inside{fill:#fff;font-weight:600}
.timeline .first-token{stroke:#111827;stroke-width:2}
.timeline .wait-bar{fill:#fde68a;stroke:#d97706;stroke-dasharray:3 2}
.timeline .attempt-bar.hedge{stroke:#1d4ed8;stroke-width:2;stroke-dasharray:4 2}
.legend i.first-token-key{width:2px;background:#111827}
.legend i.wait-key{background:#fde68a;border:1px dashed #d97706}
.run-facts{overflow-wrap:anywhere}
`;
