/**
 * The title of a row whose feed gave none, written from its fields in the city's
 * language (French, or English in the North-West and South-West): "Appartement 2
 * chambres à louer à Akwa", "2-bedroom apartment for rent in Molyko". Deterministic: the
 * same row always gets the same title, so a re-import changes nothing.
 */
import type { ListingRecord } from './record.js';

type Kind = ListingRecord['type'];

const FRENCH: Record<Kind, string> = {
  villa: 'Villa',
  house: 'Maison',
  apartment: 'Appartement',
  studio: 'Studio',
  duplex: 'Duplex',
  room: 'Chambre',
  land: 'Terrain',
  office: 'Bureau',
  shop: 'Boutique',
  warehouse: 'Entrepôt',
};
const ENGLISH: Record<Kind, string> = {
  villa: 'villa',
  house: 'house',
  apartment: 'apartment',
  studio: 'studio',
  duplex: 'duplex',
  room: 'room',
  land: 'plot of land',
  office: 'office',
  shop: 'shop',
  warehouse: 'warehouse',
};
/** Kinds whose French noun is feminine (une villa meublée). */
const FEMININE = new Set<Kind>(['villa', 'house', 'room', 'shop']);
/** Kinds whose bedrooms a title names. */
const WITH_BEDROOMS = new Set<Kind>(['villa', 'house', 'apartment', 'duplex']);

type Fields = Pick<ListingRecord, 'type' | 'purpose' | 'bedrooms' | 'surface'> & { place: string };

export function writtenTitle(r: Fields, english: boolean): string {
  const beds = WITH_BEDROOMS.has(r.type) && r.bedrooms ? r.bedrooms : null;
  const area = r.type === 'land' && r.surface ? Math.round(r.surface) : null;
  if (english) {
    const what = `${beds ? `${beds}-bedroom ` : ''}${r.purpose === 'furnished_rent' ? 'furnished ' : ''}${ENGLISH[r.type]}`;
    const size = area ? ` of ${area.toLocaleString('en-US')} m²` : '';
    const action = r.purpose === 'sale' ? 'for sale' : 'for rent';
    const text = `${what}${size} ${action} in ${r.place}`;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  const rooms = beds ? ` ${beds} chambre${beds > 1 ? 's' : ''}` : '';
  const size = area ? ` de ${area.toLocaleString('fr-FR').replace(/\s/g, ' ')} m²` : '';
  const furnished = r.purpose === 'furnished_rent' ? (FEMININE.has(r.type) ? ' meublée' : ' meublé') : '';
  const action = r.purpose === 'sale' ? 'à vendre' : 'à louer';
  return `${FRENCH[r.type]}${furnished}${rooms}${size} ${action} à ${r.place}`;
}
