/**
 * A text longer than one SMS segment leaves as several messages, split between words and
 * numbered "(1/3) ", so each arrives whole on any phone.
 */

// GSM 03.38 basic characters: 160 per segment; anything else needs UCS-2, 70 per segment.
const GSM = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;
const PREFIX = '(9/9) '.length;

export function segments(text: string): string[] {
  const limit = GSM.test(text) ? 160 : 70;
  if (text.length <= limit) return [text];
  const room = limit - PREFIX;
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > room) {
    const cut = rest.lastIndexOf(' ', room);
    const at = cut > room / 2 ? cut : room;
    parts.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts.map((p, i) => `(${i + 1}/${parts.length}) ${p}`);
}
