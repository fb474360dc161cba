/**
 * Listing titles the way Cameroonian portals and agents write them: French in most of the
 * country ("Villa duplex 5 chambres à vendre à Bonapriso"), English in the North-West and
 * South-West ("3-bedroom apartment for rent in Molyko").
 *
 * Templates are functions built once at load: the generator writes millions of titles.
 */
import type { PropertyType } from './kinds.js';
import type { Property } from './property.js';
import type { Random } from './random.js';

/** What a template needs, already worded for its language. */
interface Words {
  /** "à vendre" / "for rent" */
  action: string;
  /** " à Bonapriso" / ", Bonapriso" / " in Molyko" */
  at: string;
  /** "3 chambres" / "3-bedroom" */
  beds: string;
  /** "1 000 m²" / "1,000 m²" */
  area: string;
  furnished: boolean;
}
type Template = (w: Words) => string;

const FRENCH: Record<PropertyType, { plain: Template[]; furnished?: Template[] }> = {
  villa: {
    plain: [
      (w) => `Villa ${w.beds} ${w.action}${w.at}`,
      (w) => `Villa duplex ${w.beds} ${w.action}${w.at}`,
      (w) => `Belle villa moderne de ${w.beds} ${w.action}${w.at}`,
      (w) => `Villa ${w.beds} avec piscine ${w.action}${w.at}`,
    ],
    furnished: [(w) => `Villa meublée ${w.beds} à louer${w.at}`, (w) => `Villa ${w.beds} meublée avec piscine${w.at}`],
  },
  duplex: {
    plain: [(w) => `Duplex ${w.beds} ${w.action}${w.at}`, (w) => `Joli duplex de ${w.beds} ${w.action}${w.at}`],
    furnished: [(w) => `Duplex meublé ${w.beds} à louer${w.at}`],
  },
  house: {
    plain: [
      (w) => `Maison ${w.beds} ${w.action}${w.at}`,
      (w) => `Maison familiale de ${w.beds} ${w.action}${w.at}`,
      (w) => `Maison basse ${w.beds} ${w.action}${w.at}`,
    ],
  },
  apartment: {
    plain: [
      (w) => `Appartement ${w.beds} ${w.action}${w.at}`,
      (w) => `Bel appartement de ${w.beds} ${w.action}${w.at}`,
      (w) => `Appartement haut standing ${w.beds} ${w.action}${w.at}`,
    ],
    furnished: [(w) => `Appartement meublé ${w.beds}${w.at}`, (w) => `Bel appartement meublé de ${w.beds} à louer${w.at}`],
  },
  studio: {
    plain: [(w) => `Studio moderne ${w.action}${w.at}`, (w) => `Studio ${w.action}${w.at}`, (w) => `Beau studio ${w.action}${w.at}`],
    furnished: [(w) => `Studio meublé à louer${w.at}`, (w) => `Studio meublé moderne${w.at}`],
  },
  room: {
    plain: [(w) => `Chambre ${w.action}${w.at}`, (w) => `Chambre moderne ${w.action}${w.at}`],
    furnished: [(w) => `Chambre meublée à louer${w.at}`],
  },
  land: {
    plain: [
      (w) => `Terrain titré de ${w.area} ${w.action}${w.at}`,
      (w) => `Terrain de ${w.area} ${w.action}${w.at}`,
      (w) => `Lot de terrain ${w.area} ${w.action}${w.at}`,
    ],
  },
  office: {
    plain: [
      (w) => `Bureau de ${w.area} ${w.action}${w.at}`,
      (w) => `Espace bureau ${w.action}${w.at}`,
      (w) => `Plateau de bureaux ${w.area} ${w.action}${w.at}`,
    ],
  },
  shop: {
    plain: [
      (w) => `Boutique ${w.action}${w.at}`,
      (w) => `Magasin de ${w.area} ${w.action}${w.at}`,
      (w) => `Local commercial ${w.action}${w.at}`,
    ],
  },
  warehouse: {
    plain: [(w) => `Entrepôt de ${w.area} ${w.action}${w.at}`, (w) => `Magasin de stockage ${w.area} ${w.action}${w.at}`],
  },
};

const ENGLISH: Record<PropertyType, { plain: Template[]; furnished?: Template[] }> = {
  villa: {
    plain: [(w) => `${w.beds} villa ${w.action}${w.at}`, (w) => `${w.beds} duplex villa ${w.action}${w.at}`],
    furnished: [(w) => `Furnished ${w.beds} villa for rent${w.at}`],
  },
  duplex: { plain: [(w) => `${w.beds} duplex ${w.action}${w.at}`], furnished: [(w) => `Furnished ${w.beds} duplex for rent${w.at}`] },
  house: { plain: [(w) => `${w.beds} house ${w.action}${w.at}`, (w) => `${w.beds} family house ${w.action}${w.at}`] },
  apartment: {
    plain: [(w) => `${w.beds} apartment ${w.action}${w.at}`, (w) => `Modern ${w.beds} apartment ${w.action}${w.at}`],
    furnished: [(w) => `Furnished ${w.beds} apartment for rent${w.at}`, (w) => `Fully furnished ${w.beds} apartment${w.at}`],
  },
  studio: {
    plain: [(w) => `Modern studio ${w.action}${w.at}`, (w) => `Self-contained studio ${w.action}${w.at}`],
    furnished: [(w) => `Furnished studio for rent${w.at}`],
  },
  room: {
    plain: [(w) => `Room ${w.action}${w.at}`, (w) => `Single room ${w.action}${w.at}`],
    furnished: [(w) => `Furnished room for rent${w.at}`],
  },
  land: {
    plain: [
      (w) => `${w.area} land ${w.action}${w.at}`,
      (w) => `Land ${w.action}${w.at} (${w.area})`,
      (w) => `Titled plot of ${w.area} ${w.action}${w.at}`,
    ],
  },
  office: { plain: [(w) => `Office space ${w.action}${w.at}`, (w) => `${w.area} office ${w.action}${w.at}`] },
  shop: { plain: [(w) => `Shop ${w.action}${w.at}`, (w) => `Commercial space ${w.action}${w.at}`] },
  warehouse: { plain: [(w) => `${w.area} warehouse ${w.action}${w.at}`] },
};

function thousands(n: number, separator: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

export function titleOf(rng: Random, p: Property, neighborhood: string, english: boolean): string {
  const furnished = p.purpose === 'furnished_rent';
  const words: Words = english
    ? {
        action: p.purpose === 'sale' ? 'for sale' : 'for rent',
        at: rng.chance(0.6) ? ` in ${neighborhood}` : `, ${neighborhood}`,
        beds: `${p.bedrooms}-bedroom`,
        area: `${thousands(p.surface, ',')} m²`,
        furnished,
      }
    : {
        action: p.purpose === 'sale' ? 'à vendre' : 'à louer',
        at: rng.chance(0.5) ? ` à ${neighborhood}` : `, ${neighborhood}`,
        beds: `${p.bedrooms} chambre${p.bedrooms > 1 ? 's' : ''}`,
        area: `${thousands(p.surface, ' ')} m²`,
        furnished,
      };
  const set = (english ? ENGLISH : FRENCH)[p.type];
  const templates = furnished && set.furnished ? set.furnished : set.plain;
  const title = rng.pick(templates)(words);
  return title[0].toUpperCase() + title.slice(1);
}
