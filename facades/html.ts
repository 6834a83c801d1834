import { Eta } from 'eta';

// Eta escapes every <%= %> value, so customer- and owner-typed text is shown, never rendered.
export const eta = new Eta({ autoEscape: true, autoTrim: false });

/** The page shell shared by every HTML page. `title` must be trusted text. */
export const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Porchlight</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}.status{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;background:#eef}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #446;background:#335;color:#fff;cursor:pointer}
button.danger{background:#a33;border-color:#822}textarea{width:100%;min-height:5rem}
.msg{border-left:3px solid #ccd;padding-left:.6rem;margin:.4rem 0;white-space:pre-wrap}.note{color:#555}
.page{white-space:pre-wrap;overflow-wrap:anywhere}input{font-size:1rem;width:100%;max-width:24rem;padding:.3rem;margin-bottom:.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
</style></head><body>${body}</body></html>`;
