import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { estimateVisit, requestOnlyReason } from '../../src/menus/estimate.js';
import { planMenu, sameMenu, type MenuData, type MenuUpdate } from '../../src/menus/menu.js';
import { idFromName } from '../../src/core/menu-ids.js';

const menu: MenuData = {
  revision: 4,
  services: [
    { id: 'cut', name: "Women's cut", description: '', priceKind: 'fixed', priceCents: 6500, durationMinutes: 60, group: 'haircut', addOnIds: ['condition', 'massage'], scentIds: ['lavender', 'citrus'] },
    { id: 'mens-cut', name: "Men's cut", description: '', priceKind: 'fixed', priceCents: 4000, durationMinutes: 30, group: 'haircut', addOnIds: [], scentIds: [] },
    { id: 'colour', name: 'Colour', description: '', priceKind: 'from', priceCents: 9500, durationMinutes: 90, group: 'colour', addOnIds: ['toner'], scentIds: [] },
    { id: 'balayage', name: 'Balayage', description: '', priceKind: 'confirm', priceCents: null, durationMinutes: null, group: 'colour', addOnIds: ['toner'], scentIds: [] },
    { id: 'blow', name: 'Blow-dry', description: '', priceKind: 'fixed', priceCents: 4500, durationMinutes: 45, group: null, addOnIds: ['art'], scentIds: ['citrus'] },
  ],
  addOns: [
    { id: 'condition', name: 'Deep conditioning', priceCents: 1500, durationMinutes: 15 },
    { id: 'massage', name: 'Scalp massage', priceCents: 1200, durationMinutes: 10 },
    { id: 'toner', name: 'Toner', priceCents: 2500, durationMinutes: 20 },
    { id: 'art', name: 'Braids (priced by style)', priceCents: null, durationMinutes: null },
  ],
  scents: [
    { id: 'lavender', name: 'Lavender' },
    { id: 'citrus', name: 'Citrus' },
  ],
};

/** The AppError a call throws, as code and message. */
function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('estimateVisit', () => {
  it('itemises in integer cents, with add-ons and scent per service, and sums the whole visit', () => {
    const e = estimateVisit(menu, [
      { service_id: 'cut', add_on_ids: ['condition', 'massage'], scent_id: 'lavender' },
      { service_id: 'blow', add_on_ids: [] },
    ]);
    expect(e).toMatchObject({ menuRevision: 4, estimateCents: 6500 + 1500 + 1200 + 4500, partial: false, durationMinutes: 60 + 15 + 10 + 45, serviceIds: ['cut', 'blow'] });
    expect(e.items[0]).toEqual({
      serviceId: 'cut',
      name: "Women's cut",
      priceKind: 'fixed',
      priceCents: 6500,
      durationMinutes: 60,
      group: 'haircut',
      addOns: [
        { addOnId: 'condition', name: 'Deep conditioning', priceCents: 1500, durationMinutes: 15 },
        { addOnId: 'massage', name: 'Scalp massage', priceCents: 1200, durationMinutes: 10 },
      ],
      scent: { scentId: 'lavender', name: 'Lavender' },
      subtotalCents: 9200,
      partial: false,
    });
    expect(e.items[1]!.scent).toBeNull();
  });

  it('is partial where staff price something: from prices, confirm prices and unpriced add-ons', () => {
    const from = estimateVisit(menu, [{ service_id: 'colour', add_on_ids: ['toner'] }]);
    expect(from).toMatchObject({ estimateCents: 12000, partial: true, durationMinutes: 110 });
    expect(from.items[0]).toMatchObject({ priceKind: 'from', priceCents: 9500, subtotalCents: 12000, partial: true });
    const confirm = estimateVisit(menu, [{ service_id: 'balayage', add_on_ids: ['toner'] }]);
    expect(confirm).toMatchObject({ estimateCents: 2500, partial: true, durationMinutes: null });
    expect(confirm.items[0]).toMatchObject({ priceKind: 'confirm', priceCents: null, subtotalCents: 2500 });
    const art = estimateVisit(menu, [{ service_id: 'blow', add_on_ids: ['art'] }]);
    expect(art).toMatchObject({ estimateCents: 4500, partial: true, durationMinutes: null });
  });

  it('refuses incompatible choices, naming the offending id', () => {
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'perm', add_on_ids: [] }]))).toMatchObject({ code: 'not_found', message: expect.stringContaining('"perm"') });
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'mens-cut', add_on_ids: ['condition'] }]))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/Add-on "condition" cannot be chosen with service "mens-cut"; its add-ons are: none/),
    });
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'cut', add_on_ids: ['nope'] }])).message).toContain('"nope"');
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'cut', add_on_ids: ['massage', 'massage'] }])).message).toContain('"massage" is listed twice');
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'blow', add_on_ids: [], scent_id: 'lavender' }]))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('Scent "lavender" cannot be chosen with service "blow"; its scents are: "citrus"'),
    });
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'mens-cut', add_on_ids: [], scent_id: 'citrus' }])).message).toContain('its scents are: none');
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'cut', add_on_ids: [] }, { service_id: 'mens-cut', add_on_ids: [] }]))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('"cut" and "mens-cut" are both in the group "haircut"'),
    });
    expect(refusal(() => estimateVisit(menu, [{ service_id: 'blow', add_on_ids: [] }, { service_id: 'blow', add_on_ids: [] }])).message).toContain('"blow" is selected twice');
    // Different groups (and no group) combine freely.
    expect(estimateVisit(menu, [{ service_id: 'cut', add_on_ids: [] }, { service_id: 'colour', add_on_ids: [] }, { service_id: 'blow', add_on_ids: [] }]).items).toHaveLength(3);
  });
});

describe('requestOnlyReason', () => {
  const on = { schedulingEnabled: true };
  const team = [{ serviceIds: ['cut', 'blow'] }, { serviceIds: ['colour'] }];
  it('is null only with scheduling on, fixed prices, known durations and one technician for all of it', () => {
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'cut', add_on_ids: [] }, { service_id: 'blow', add_on_ids: [] }]), on, team)).toBeNull();
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'cut', add_on_ids: [] }]), { schedulingEnabled: false }, team)).toMatch(/not enabled staff scheduling/);
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'colour', add_on_ids: [] }]), on, team)).toMatch(/staff confirm the price of Colour \(priced from\)/);
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'balayage', add_on_ids: [] }]), on, [{ serviceIds: ['balayage'] }])).toMatch(/duration of Balayage is not known.*staff confirm the price of Balayage/);
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'blow', add_on_ids: ['art'] }]), on, team)).toMatch(/duration of Blow-dry is not known/);
    expect(requestOnlyReason(estimateVisit(menu, [{ service_id: 'cut', add_on_ids: [] }, { service_id: 'mens-cut', add_on_ids: [] }].slice(0, 1)), on, [])).toMatch(/no technician does Women's cut/);
    const fixedColour: MenuData = { ...menu, services: menu.services.map((s) => (s.id === 'colour' ? { ...s, priceKind: 'fixed' as const } : s)) };
    expect(requestOnlyReason(estimateVisit(fixedColour, [{ service_id: 'cut', add_on_ids: [] }, { service_id: 'colour', add_on_ids: [] }]), on, team)).toMatch(
      /no one technician does Women's cut and Colour in one visit/,
    );
  });
});

describe('planMenu', () => {
  const update = (over: Partial<MenuUpdate> = {}): MenuUpdate => ({
    services: [
      { service_id: 'cut', name: "Women's cut", price_kind: 'fixed', price_cents: 6500, duration_minutes: 60, group: 'haircut', add_on_ids: ['deep-conditioning'], scent_ids: ['lav'] },
      { name: 'Gloss & Tone', price_kind: 'confirm', price_cents: null, duration_minutes: null, add_on_ids: [], scent_ids: [] },
    ],
    add_ons: [{ name: 'Deep conditioning', price_cents: 1500, duration_minutes: 15 }],
    scents: [{ scent_id: 'lav', name: 'Lavender' }],
    ...over,
  });

  it('keeps the ids given and makes readable ids for new items', () => {
    const m = planMenu(update());
    expect(m.services.map((s) => s.id)).toEqual(['cut', 'gloss-tone']);
    expect(m.addOns).toEqual([{ id: 'deep-conditioning', name: 'Deep conditioning', priceCents: 1500, durationMinutes: 15 }]);
    expect(m.services[0]).toMatchObject({ addOnIds: ['deep-conditioning'], scentIds: ['lav'], group: 'haircut', priceKind: 'fixed' });
    // A new name equal to an id already taken gets a suffix.
    const twice = planMenu(update({ services: [{ service_id: 'cut', name: 'A', price_kind: 'fixed', price_cents: 1, duration_minutes: 5, add_on_ids: [], scent_ids: [] }, { name: 'Cut', price_kind: 'fixed', price_cents: 1, duration_minutes: 5, add_on_ids: [], scent_ids: [] }] }));
    expect(twice.services.map((s) => s.id)).toEqual(['cut', 'cut-2']);
  });

  it('refuses prices that do not match their kind, unknown references and repeated ids', () => {
    const svc = (over: object) => update({ services: [{ service_id: 'x', name: 'X', price_kind: 'fixed', price_cents: 100, duration_minutes: 30, add_on_ids: [], scent_ids: [], ...over }] });
    expect(refusal(() => planMenu(svc({ price_cents: null }))).message).toMatch(/Service "x" \(X\) has price_kind fixed, which needs price_cents/);
    expect(refusal(() => planMenu(svc({ price_kind: 'from', price_cents: null }))).message).toMatch(/from, which needs price_cents \(the lowest price\)/);
    expect(refusal(() => planMenu(svc({ price_kind: 'confirm', price_cents: 100 }))).message).toMatch(/price_cents must be null/);
    expect(refusal(() => planMenu(svc({ add_on_ids: ['ghost'] }))).message).toMatch(/allows add-on "ghost", which is not in add_ons/);
    expect(refusal(() => planMenu(svc({ scent_ids: ['rose'] }))).message).toMatch(/allows scent "rose", which is not in scents/);
    expect(refusal(() => planMenu(update({ scents: [{ scent_id: 'lav', name: 'A' }, { scent_id: 'lav', name: 'B' }] }))).message).toMatch(/scent id "lav" appears twice/);
  });

  it('tells an unchanged menu from a changed one', () => {
    const a = planMenu(update());
    expect(sameMenu(a, planMenu(update()))).toBe(true);
    expect(sameMenu(a, planMenu(update({ scents: [{ scent_id: 'lav', name: 'Lavender field' }] })))).toBe(false);
  });

  it('makes ids from names', () => {
    expect(idFromName("Women's Cut & Style", 'x')).toBe('womens-cut-style');
    expect(idFromName('Café crème', 'x')).toBe('cafe-creme');
    expect(idFromName('***', 'service-3')).toBe('service-3');
    expect(idFromName('a'.repeat(100), 'x')).toHaveLength(56);
  });
});
