/**
 * The dashboard's stylesheet. Wide windows: the page spans the window (up to 1680 px, centred), the charts
 * beside the chains and the numbers of the last 15 minutes. Narrow windows (below 760 px): one column, and tables of class
 * `stack` become one card per row with each cell labelled from its `data-label`, so no table is wider than
 * the screen. Chart text is drawn at the chart's real pixel size by the script, so it stays legible.
 */
export const DASHBOARD_STYLE = `
:root{color-scheme:light}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}
header{display:flex;flex-wrap:wrap;gap:.6rem 1.2rem;align-items:center;padding:.8rem clamp(.75rem,2vw,2rem);background:#111827;color:#f9fafb}
header h1{font-size:1.25rem;margin:0}header label{font-size:.85rem;color:#d1d5db}
header input,header select{margin-left:.35rem;padding:.2rem .4rem;border-radius:4px;border:1px solid #4b5563;background:#1f2937;color:#f9fafb;max-width:11rem}
main{padding:0 clamp(.75rem,2vw,2rem) 2rem;max-width:1680px;margin:0 auto}
h2{font-size:1.05rem;margin:.4rem 0 .5rem}h3{margin:.8rem 0 .2rem;font-weight:600}
section{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:.75rem 1rem;margin-top:1rem;min-width:0}
.grid{display:grid;grid-template-columns:minmax(0,1fr);gap:0 1rem}
@media (min-width:1100px){.grid{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(10.5rem,1fr));gap:.6rem;margin-top:.6rem}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:.55rem .8rem}
.card-label{color:#6b7280;font-size:.8rem}.card-value{font-size:1.2rem;font-weight:650;font-variant-numeric:tabular-nums}
.card-note{color:#6b7280;font-size:.75rem;min-height:1em}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .55rem;border-bottom:1px solid #eef0f3;vertical-align:top}
th{font-weight:600;color:#4b5563;font-size:.85rem}
td.number{font-variant-numeric:tabular-nums;white-space:nowrap}
.meta{color:#6b7280;font-size:.85rem}.muted{color:#9ca3af;font-style:italic}.stale{color:#b91c1c;font-weight:600}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600}
.badge.usable{background:#dcfce7;color:#166534}.badge.cooldown{background:#fef3c7;color:#92400e}
.badge.disabled{background:#fee2e2;color:#991b1b}.badge.blocked{background:#ede9fe;color:#5b21b6}
tr[data-state=cooldown] td.recovers{color:#92400e;font-weight:600}tr[data-state=disabled] td.recovers{color:#991b1b;font-weight:600}
td.headroom.spent{color:#92400e;font-weight:600}
tr.model-family td{font-weight:600;background:#f9fafb}tr.in-family td:first-child{padding-left:1.5rem}
button{padding:.15rem .6rem;border:1px solid #d1d5db;border-radius:4px;background:#f9fafb;cursor:pointer;font:inherit}
button:disabled{opacity:.5;cursor:default}
.chain{margin:.2rem 0;overflow-wrap:anywhere}.chain code{background:#f3f4f6;padding:.05rem .35rem;border-radius:4px}
code{overflow-wrap:anywhere}
.chart-box{width:100%;min-height:60px}
.chart{width:100%;height:auto;display:block}.axis{font-size:11px;fill:#4b5563}.grid-line{stroke:#e5e7eb}
.legends{display:flex;flex-wrap:wrap;gap:.2rem 1rem;margin:.3rem 0}
.legend{display:inline-flex;align-items:center;gap:.3rem;font-size:.85rem;overflow-wrap:anywhere}
.legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;flex:none}
#admin-message{margin:.4rem 0 0;color:#1d4ed8}
@media (max-width:760px){header{gap:.4rem .8rem}header label{display:flex;align-items:center}}
section{container-type:inline-size}
@container (max-width:720px){
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
  table.stack thead{display:none}
  table.stack tr{border:1px solid #e5e7eb;border-radius:6px;margin:.5rem 0;padding:.25rem .5rem}
  table.stack td{display:flex;gap:.75rem;border:0;padding:.15rem 0;overflow-wrap:anywhere;min-width:0;white-space:normal}
  table.stack td::before{content:attr(data-label);flex:0 0 7.5rem;color:#6b7280;font-size:.8rem;font-weight:600}
  table.stack td:empty{display:none}
  table.stack td[data-label=""]::before{content:none}
}
`;
