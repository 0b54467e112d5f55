// The dashboard's one stylesheet and one script, served from the server: the CSP allows no inline
// style or script (docs/dashboard.md#content-security-policy).

export const stylesheet = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d5d9e2; --accent: #1f5fbf; --bad: #b3261e; --good: #1e7b34; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--ink); background: #f6f7fa; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 2; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 16px; padding: 10px 24px; background: #16213a; color: #fff; }
header a { color: #fff; } .brand { font-weight: 700; font-size: 18px; margin-right: 12px; }
nav { display: flex; flex: 1; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 12px; }
nav ul { display: flex; gap: 16px; list-style: none; margin: 0; padding: 0; }
.signout { display: flex; gap: 8px; align-items: center; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { margin-top: 8px; } section { margin: 24px 0; }
a { color: var(--accent); } a:focus, button:focus, input:focus, select:focus, summary:focus { outline: 3px solid #f5b400; outline-offset: 2px; }
form.stacked { display: grid; gap: 6px; max-width: 420px; }
[hidden] { display: none !important; }
form.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 16px; }
form.inline { display: inline-flex; gap: 6px; align-items: center; margin: 2px 0; }
input, select, button { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 4px; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.danger { background: var(--bad); border-color: var(--bad); }
table.accounts th[scope=row], table.accounts td:not(.actions) { white-space: nowrap; } .paging { margin: 8px 0; }
table { border-collapse: collapse; width: 100%; background: #fff; margin: 8px 0; }
caption { text-align: left; color: var(--muted); padding: 4px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; }
td.actions details { margin-top: 4px; }
.error { color: var(--bad); background: #fdecea; padding: 8px 12px; border-left: 4px solid var(--bad); }
.success { color: var(--good); background: #e8f5ec; padding: 8px 12px; border-left: 4px solid var(--good); }
.secret { background: #fff8e1; border: 1px solid #f5b400; padding: 8px 16px; margin: 16px 0; }
.secret input { font-family: ui-monospace, monospace; }
.secret-field label { display: block; margin-bottom: 8px; } /* clear of the field's focus ring */
.muted, .hint { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; background: #e3e8f4; font-size: 12px; }
.badge.bad { background: #fdecea; color: var(--bad); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.figure { font-size: 20px; } progress { width: 100%; max-width: 420px; height: 16px; }
svg.chart { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); }
svg .axis { stroke: #99a; } svg .tick { font-size: 12px; fill: var(--muted); }
svg .grid { stroke: #e4e6ee; } svg .series { fill: none; stroke: var(--accent); stroke-width: 2; } svg .point { fill: var(--accent); }
section.series svg.line-chart, section.series table { max-width: 640px; } td.number { text-align: right; font-variant-numeric: tabular-nums; }
.empty { padding: 24px; background: #fff; border: 1px dashed var(--line); color: var(--muted); }
svg .requests { fill: var(--accent); }
.outcome-found { fill: #1e7b34; background: #1e7b34; } .outcome-notFound { fill: #7a869a; background: #7a869a; }
.outcome-rateLimited { fill: #f5b400; background: #f5b400; } .outcome-failed { fill: #b3261e; background: #b3261e; } .outcome-deferred { fill: #8e5cc4; background: #8e5cc4; }
.key { display: inline-block; width: 10px; height: 10px; } .legend-item { white-space: nowrap; }
.breaker-open { color: var(--bad); font-weight: 700; } .breaker-closed { color: var(--good); }
svg.machine { width: 100%; max-width: 760px; background: #fff; border: 1px solid var(--line); }
svg.machine .state rect { fill: #eef2fb; stroke: #7a869a; } svg.machine .state.any rect { fill: #fff; stroke-dasharray: 4 3; }
svg.machine .state.current rect { fill: #ffe8a3; stroke: #c77700; stroke-width: 3; }
svg.machine text { font-size: 12px; fill: var(--ink); } svg.machine .stays { fill: var(--muted); font-size: 11px; }
svg.machine line { stroke: #5b6475; stroke-width: 1.4; } svg.machine .any line { stroke-dasharray: 5 4; }
svg.machine marker path { fill: #5b6475; }
.platforms { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 8px 24px; }
.platform { margin: 8px 0; background: #fff; border: 1px solid var(--line); padding: 4px 12px; }
.platform h2 { margin: 4px 0; } .platform dl.facts, .platform .legend { font-size: 13px; }
.platform table { font-size: 12px; table-layout: fixed; } .platform th, .platform td { padding: 3px 2px; overflow-wrap: anywhere; } .platform th { overflow-wrap: normal; }
pre { background: #fff; border: 1px solid var(--line); padding: 8px; overflow: auto; }
`;

/**
 * Only enhances: copies secrets to the clipboard, reads an invite from the link's fragment, and
 * keeps the console's live section up to date; every form works without it.
 */
export const pageScript = `'use strict';
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button.copy');
  if (!button) return;
  var field = document.getElementById(button.getAttribute('data-copy'));
  var said = button.parentElement.querySelector('.copied');
  field.select();
  navigator.clipboard.writeText(field.value).then(function () { said.textContent = 'Copied.'; }, function () { said.textContent = 'Select the text and copy it.'; });
});
var invite = document.getElementById('invite');
// The invite travels in the fragment: read it on load and whenever it changes (a link opened in a tab already here).
function readInvite() {
  if (!invite || location.hash.length <= 1) return;
  invite.value = location.hash.slice(1);
  history.replaceState(null, '', location.pathname);
  document.getElementById('invite-missing').hidden = true;
  document.getElementById('invite-form').hidden = false;
  var refused = document.getElementById('invite-refused');
  if (refused) refused.hidden = true;
}
readInvite();
window.addEventListener('hashchange', readInvite);
var live = document.getElementById('live');
if (live && window.EventSource) {
  var events = new EventSource(live.getAttribute('data-events'));
  events.onmessage = function (message) { live.innerHTML = message.data; };
}
`;
