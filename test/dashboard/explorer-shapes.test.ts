/**
 * The explorer's map and legend, without a browser: every gazetteer quarter of every city
 * gets a shape holding its own centroid, the shapes tile the city's bounds exactly (areas
 * add up, worked out here from the paths), and the legend's classes are ordered and hold
 * every value.
 */
import { describe, expect, it } from 'vitest';
import { EXPLORER_CITIES } from '../../server/dashboard/explorer-config.js';
import { classesOf, classOf } from '../../server/dashboard/explorer/colours.js';
import { formatFor } from '../../server/dashboard/explorer/format.js';
import { cityShape } from '../../server/dashboard/explorer/geometry.js';
import { t } from '../../server/dashboard/i18n.js';
import { CLIENT_MESSAGE_KEYS } from '../../server/dashboard/messages/market-client.js';

type Pt = [number, number];

/** The polygon of a d3-delaunay cell path (`M x,y L x,y … Z`). */
function polygonOf(path: string): Pt[] {
  return [...path.matchAll(/[ML](-?[\d.e-]+),(-?[\d.e-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** Shoelace formula. */
function area(polygon: Pt[]): number {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i];
    const [x1, y1] = polygon[(i + 1) % polygon.length];
    sum += x0 * y1 - x1 * y0;
  }
  return Math.abs(sum) / 2;
}

/** Ray casting. */
function inside([x, y]: Pt, polygon: Pt[]): boolean {
  let yes = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) yes = !yes;
  }
  return yes;
}

describe('quarter shapes', () => {
  it('give every quarter of the twelve cities a shape around its centroid, tiling the city’s bounds', () => {
    expect(EXPLORER_CITIES.map((c) => c.name)).toContain('Yaoundé');
    expect(EXPLORER_CITIES).toHaveLength(12);
    for (const city of EXPLORER_CITIES) {
      const shape = cityShape(city);
      expect(shape.cells).toHaveLength(city.neighborhoods.length);
      let total = 0;
      for (const cell of shape.cells) {
        expect(cell.path, `${city.name}: ${cell.name}`).not.toBe('');
        const polygon = polygonOf(cell.path);
        expect(inside([cell.x, cell.y], polygon), `${city.name}: ${cell.name} holds its point`).toBe(true);
        total += area(polygon);
      }
      expect(total / (shape.width * shape.height), city.name).toBeCloseTo(1, 6);
    }
  });

  it('draw a quarter at its gazetteer point, and nothing outside the city', () => {
    const douala = EXPLORER_CITIES.find((c) => c.name === 'Douala')!;
    const shape = cityShape(douala);
    const [name, lat, lng] = douala.neighborhoods.find((q) => q[0] === 'Akwa')!;
    const cell = shape.cells.find((c) => c.name === name)!;
    const [x, y] = shape.project(lat, lng)!;
    expect(x).toBeCloseTo(cell.x, 6);
    expect(y).toBeCloseTo(cell.y, 6);
    // East of Akwa is further right, north of it higher up.
    expect(shape.project(lat, lng + 0.01)![0]).toBeGreaterThan(x);
    expect(shape.project(lat + 0.01, lng)![1]).toBeLessThan(y);
    expect(shape.project(3.5, 11.5)).toBeNull();
  });

  it('spread the quarters the gazetteer puts at one point, so each has a shape of its own', () => {
    const city = EXPLORER_CITIES.find((c) => c.name === 'Ngaoundéré')!;
    const points = new Map<string, number>();
    for (const [, lat, lng] of city.neighborhoods) points.set(`${lat},${lng}`, (points.get(`${lat},${lng}`) ?? 0) + 1);
    expect([...points.values()].some((n) => n > 1)).toBe(true);
    const cells = cityShape(city).cells;
    expect(new Set(cells.map((c) => `${c.x},${c.y}`)).size).toBe(cells.length);
  });
});

describe('legend classes', () => {
  const f = formatFor({ lang: 'en', messages: Object.fromEntries(CLIENT_MESSAGE_KEYS.map((k) => [k, t('en', k)])) as never });

  it('cut prices into five ordered classes in round francs, every value in the class its label names', () => {
    const values = [42_000, 55_000, 61_500, 80_000, 95_000, 120_000, 150_000, 180_000, 250_000, 400_000, 610_000];
    const classes = classesOf('median', values, f);
    expect(classes.colours).toHaveLength(5);
    expect(classes.breaks).toHaveLength(4);
    for (let i = 1; i < classes.breaks.length; i++) expect(classes.breaks[i]).toBeGreaterThan(classes.breaks[i - 1]);
    for (const b of classes.breaks) expect(String(b)).toMatch(/^\d{1,2}0*$/);
    for (const v of values) {
      const k = classOf(classes, v);
      if (k > 0) expect(v).toBeGreaterThan(classes.breaks[k - 1]);
      if (k < classes.breaks.length) expect(v).toBeLessThanOrEqual(classes.breaks[k]);
    }
    // The first bound: the value a fifth of the way up (61,500, the 3rd of 11), to two significant digits.
    expect(classes.labels[0]).toBe('up to 62,000\u00a0XAF');
    expect(classes.labels.at(-1)).toMatch(/^above [\d,]+\u00a0XAF$/);
    // Ordered: a dearer quarter is never in a lighter class.
    const sorted = [...values].sort((a, b) => a - b).map((v) => classOf(classes, v));
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
  });

  it('make one class of a single figure, and fixed classes around zero for the change', () => {
    const one = classesOf('median', [150_000], f);
    expect(one.colours).toHaveLength(1);
    expect(classOf(one, 150_000)).toBe(0);
    const change = classesOf('change', [-20, 0, 15], f);
    expect([-20, -10, -5, 0, 3, 7, 15].map((v) => classOf(change, v))).toEqual([0, 0, 1, 2, 2, 3, 4]);
    expect(change.labels[2]).toBe('-3.0% – +3.0%');
    const m2 = classesOf('m2', [1_000, 2_000, 3_000, 4_000, 5_000, 6_000], f);
    expect(m2.labels.at(-1)).toContain('XAF per m²');
  });
});
