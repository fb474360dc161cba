/**
 * The map: the city's quarter shapes in SVG (no tiles, nothing fetched), coloured by
 * class or hatched when a quarter lacks data, each a button (click, Enter or Space) with
 * its figure in words; zoomed to a quarter when one is chosen, with points (listings,
 * comparables) drawn over it.
 */
import type { CityShape } from './geometry.js';
import { svg } from './format.js';

export interface NeighborhoodFill {
  /** Fill colour, or null when the quarter lacks data (hatched). */
  colour: string | null;
  /** What a screen reader and a tooltip say of it. */
  label: string;
}

export interface MapPoint {
  lat: number;
  lng: number;
  label: string;
  kind: 'listing' | 'comparable' | 'subject';
}

type Box = [number, number, number, number];

/** How far around a quarter's centroid its zoomed view reaches at most. */
const ZOOM_SPAN_M = 2_500;

export class NeighborhoodMap {
  readonly element: SVGSVGElement;
  private readonly paths = new Map<string, SVGPathElement>();
  private readonly points: SVGGElement;
  private selected: string | null = null;
  private view: Box;

  constructor(
    private readonly shape: CityShape,
    title: string,
    private readonly onSelect: (name: string) => void,
  ) {
    this.view = shape.focus;
    const hatch = svg(
      'pattern',
      { id: 'no-data', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      svg('rect', { width: 8, height: 8, fill: '#f3f5f4' }),
      svg('line', { x1: 0, y1: 0, x2: 0, y2: 8, stroke: '#d3d9d6', 'stroke-width': 2 }),
    );
    const cells = svg('g', { class: 'cells' });
    for (const cell of shape.cells) {
      if (!cell.path) continue;
      const path = svg('path', {
        d: cell.path,
        class: 'cell is-loading',
        tabindex: 0,
        role: 'button',
        'data-neighborhood': cell.name,
        // Its centroid (inside its shape, which a Voronoi cell is around its site): where a pointer picks it.
        'data-x': cell.x.toFixed(1),
        'data-y': cell.y.toFixed(1),
        'aria-label': cell.name,
      });
      path.append(svg('title'));
      path.lastElementChild!.textContent = cell.name;
      cells.append(path);
      this.paths.set(cell.name, path);
    }
    this.points = svg('g', { class: 'points' });
    this.element = svg(
      'svg',
      { class: 'map-svg', viewBox: this.viewBox(), role: 'group', 'aria-label': title, preserveAspectRatio: 'xMidYMid meet' },
      svg('defs', {}, hatch),
      svg('rect', { class: 'bounds', x: 0, y: 0, width: shape.width, height: shape.height }),
      cells,
      this.points,
    );
    const choose = (event: Event) => {
      const name = (event.target as Element).closest('[data-neighborhood]')?.getAttribute('data-neighborhood');
      if (name) this.onSelect(name);
    };
    this.element.addEventListener('click', choose);
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      choose(event);
    });
  }

  private viewBox(): string {
    const [x0, y0, x1, y1] = this.view;
    return `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`;
  }

  fill(fills: Map<string, NeighborhoodFill>): void {
    for (const [name, path] of this.paths) {
      const f = fills.get(name);
      path.classList.remove('is-loading');
      path.classList.toggle('no-data', !f || f.colour === null);
      path.style.fill = f?.colour ?? '';
      const label = f?.label ?? name;
      path.setAttribute('aria-label', label);
      path.querySelector('title')!.textContent = label;
    }
  }

  /** Zooms to a quarter (null: the whole city) and marks it chosen. */
  select(name: string | null): void {
    if (this.selected) this.paths.get(this.selected)?.classList.remove('is-selected');
    this.selected = name;
    const cell = name ? this.shape.cells.find((c) => c.name === name) : undefined;
    if (name) this.paths.get(name)?.classList.add('is-selected');
    if (cell?.path) {
      // The quarter's box with a margin, at most ZOOM_SPAN around its centroid (a shape at the edge
      // of the city runs to its bounds), widened to the map's own proportions (the drawing keeps its size).
      const span = this.shape.metres(ZOOM_SPAN_M);
      const [x0, y0, x1, y1] = [
        Math.max(cell.box[0], cell.x - span),
        Math.max(cell.box[1], cell.y - span),
        Math.min(cell.box[2], cell.x + span),
        Math.min(cell.box[3], cell.y + span),
      ];
      const [f0, g0, f1, g1] = this.shape.focus;
      const ratio = (f1 - f0) / (g1 - g0);
      let w = (x1 - x0) * 1.3;
      let h = (y1 - y0) * 1.3;
      if (w / h < ratio) w = h * ratio;
      else h = w / ratio;
      const cx = (x0 + x1) / 2;
      const cy = (y0 + y1) / 2;
      this.view = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
    } else {
      this.view = this.shape.focus;
    }
    this.element.setAttribute('viewBox', this.viewBox());
    this.element.classList.toggle('is-zoomed', Boolean(cell));
  }

  /** Draws points over the map (replacing those of the same kinds); returns how many fell inside the city. */
  showPoints(points: MapPoint[], kinds: Array<MapPoint['kind']>): number {
    for (const old of Array.from(this.points.children)) if (kinds.some((k) => old.classList.contains(`pt-${k}`))) old.remove();
    const r = Math.max(this.view[2] - this.view[0], this.view[3] - this.view[1]) / 140;
    let shown = 0;
    for (const p of points) {
      const at = this.shape.project(p.lat, p.lng);
      if (!at) continue;
      const dot = svg('circle', {
        cx: at[0].toFixed(1),
        cy: at[1].toFixed(1),
        r: (p.kind === 'subject' ? r * 1.8 : r).toFixed(2),
        class: `pt pt-${p.kind}`,
      });
      dot.append(svg('title'));
      dot.lastElementChild!.textContent = p.label;
      this.points.append(dot);
      shown++;
    }
    return shown;
  }
}
