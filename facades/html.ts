import { Eta } from 'eta';

// Eta escapes every <%= %> value, so customer- and owner-typed text is shown, never rendered.
export const eta = new Eta({ autoEscape: true, autoTrim: false });

/** Text for HTML (element content and quoted attribute values). */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page shell shared by every HTML page. `title` is plain text (escaped here). */
export const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Porchlight</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}.status{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;background:#eef}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #446;background:#335;color:#fff;cursor:pointer}
button.danger{background:#a33;border-color:#822}textarea{width:100%;min-height:5rem}
.msg{border-left:3px solid #ccd;padding-left:.6rem;margin:.4rem 0;white-space:pre-wrap}.note{color:#555}
.page{white-space:pre-wrap;overflow-wrap:anywhere}input{font-size:1rem;width:100%;max-width:24rem;padding:.3rem;margin-bottom:.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
input,textarea{box-sizing:border-box}body{overflow-wrap:break-word}a{color:#1a4a9a}code{overflow-wrap:anywhere}
.cards{list-style:none;padding:0}.card{border:1px solid #ddd;border-radius:.4rem;padding:.6rem .8rem;margin:.8rem 0}.card .meta{margin:0 0 .4rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
.field{display:block;margin-top:.5rem}.check,.slot{display:inline-block;margin:.2rem .6rem .2rem 0}.slot{border:1px solid #99a;border-radius:.3rem;padding:.3rem .5rem}
input[type=radio],input[type=checkbox]{width:auto;margin:0 .3rem 0 0}select{font-size:1rem;padding:.3rem;max-width:100%;margin-bottom:.5rem}
fieldset{border:1px solid #ddd;border-radius:.4rem;margin:.6rem 0;min-width:0}legend{font-weight:600}.addons{margin-left:1.6rem}
.offer{border-top:1px solid #ddd;margin-top:1rem}.error{color:#a00;font-weight:600}.steps{display:flex;flex-wrap:wrap;gap:.2rem 1rem;padding:0;list-style:none;color:#555}
a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:.4rem;background:#335;color:#fff;text-decoration:none}.steps li{counter-increment:step}.steps li::before{content:counter(step) ". "}.steps .current{font-weight:700;color:#222}
</style></head><body>${body}</body></html>`;
