/**
 * A city's quarters as shapes: each quarter is the area nearer its gazetteer centroid than
 * any other quarter's (a Voronoi tessellation, d3-delaunay), clipped to the city's bounds.
 * Mboa knows points, not boundaries: the page says so under the map. Coordinates are
 * projected equirectangularly (longitude scaled by the cosine of the city's latitude), which
 * at a city's size is true to a fraction of a percent.
 */
import { Delaunay } from 'd3-delaunay';
import type { ExplorerCity } from '../explorer-config.js';

/** Width of the drawing, in SVG units; its height follows the bounds. */
const WIDTH = 1000;
/** Quarters the gazetteer places at one point are spread on a circle this wide (metres), so each has a shape. */
const SPREAD_M = 250;
const M_PER_DEG = 111_320;

export interface Cell {
  name: string;
  /** The centroid, projected. */
  x: number;
  y: number;
  /** SVG path of its shape; empty when it has none. */
  path: string;
  /** Its shape's box: `[x0, y0, x1, y1]`. */
  box: [number, number, number, number];
}

export interface CityShape {
  width: number;
  height: number;
  cells: Cell[];
  /** Where a point falls on the drawing; null outside the city's bounds. */
  project(lat: number, lng: number): [number, number] | null;
  /** The box holding every centroid, with a margin: what the map shows first. */
  focus: [number, number, number, number];
  /** A distance in metres, in drawing units. */
  metres(m: number): number;
}

export function cityShape(city: ExplorerCity): CityShape {
  const { south, west, north, east } = city.bounds;
  const kx = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const scale = WIDTH / ((east - west) * kx);
  const height = (north - south) * scale;
  const place = (lat: number, lng: number): [number, number] => [(lng - west) * kx * scale, (north - lat) * scale];
  const project = (lat: number, lng: number) => (lat < south || lat > north || lng < west || lng > east ? null : place(lat, lng));

  // Quarters sharing a point: spread around it, in a fixed order.
  const byPoint = new Map<string, number[]>();
  city.neighborhoods.forEach(([, lat, lng], i) => byPoint.set(`${lat},${lng}`, [...(byPoint.get(`${lat},${lng}`) ?? []), i]));
  const points = city.neighborhoods.map(([, lat, lng]) => place(lat, lng));
  const spread = (SPREAD_M / M_PER_DEG) * scale;
  for (const group of byPoint.values()) {
    if (group.length < 2) continue;
    group.forEach((i, k) => {
      const angle = (2 * Math.PI * k) / group.length;
      points[i] = [points[i][0] + spread * Math.cos(angle), points[i][1] + spread * Math.sin(angle)];
    });
  }

  const voronoi = Delaunay.from(points).voronoi([0, 0, WIDTH, height]);
  const cells: Cell[] = city.neighborhoods.map(([name], i) => {
    const polygon = voronoi.cellPolygon(i) as Array<[number, number]> | null;
    const xs = polygon?.map((p) => p[0]) ?? [points[i][0]];
    const ys = polygon?.map((p) => p[1]) ?? [points[i][1]];
    return {
      name,
      x: points[i][0],
      y: points[i][1],
      path: polygon ? voronoi.renderCell(i) : '',
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    };
  });

  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const margin = Math.max(WIDTH * 0.04, (Math.max(...xs) - Math.min(...xs)) * 0.08);
  const focus: CityShape['focus'] = [
    Math.max(0, Math.min(...xs) - margin),
    Math.max(0, Math.min(...ys) - margin),
    Math.min(WIDTH, Math.max(...xs) + margin),
    Math.min(height, Math.max(...ys) + margin),
  ];
  return { width: WIDTH, height, cells, project, focus, metres: (m) => (m / M_PER_DEG) * scale };
}
