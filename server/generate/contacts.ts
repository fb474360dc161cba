/**
 * Fake contact details for generated listings: Cameroonian names, mobile numbers in the
 * national plan (+237 6xx xx xx xx), e-mail addresses on reserved example domains, and
 * street directions as people give them. None of it is a real person.
 */
import type { Random } from './random.js';

const FIRST = [
  'Jean-Pierre',
  'Marie',
  'Emmanuel',
  'Brigitte',
  'Paul',
  'Christelle',
  'Hervé',
  'Aïcha',
  'Ibrahim',
  'Hamadou',
  'Fadimatou',
  'Samuel',
  'Blaise',
  'Sandrine',
  'Armel',
  'Landry',
  'Cyrille',
  'Nadège',
  'Yannick',
  'Carine',
  'Eric',
  'Serge',
  'Achille',
  'Rosine',
  'Franck',
  'Gisèle',
  'Ngozi',
  'Divine',
  'Clovis',
  'Bertrand',
];
const LAST = [
  'Mbarga',
  'Nkoulou',
  'Fotso',
  'Kamga',
  'Tchoumi',
  'Ngono',
  'Essomba',
  'Abena',
  'Njoya',
  'Moukoko',
  'Ekotto',
  'Ewane',
  'Tchatchoua',
  'Bello',
  'Oumarou',
  'Hamidou',
  'Ngwa',
  'Fon',
  'Tabi',
  'Ndifor',
  'Mbah',
  'Atangana',
  'Onana',
  'Mvondo',
  'Djomo',
  'Tagne',
  'Fouda',
  'Nana',
  'Kouam',
  'Njike',
];
const AGENCIES = ['Immo', 'Habitat', 'Home Services', 'Immobilier', 'Properties', 'Realty'];
const DIRECTIONS_FR = [
  'Derrière la pharmacie',
  "À côté de l'école publique",
  'Face à la station Total',
  'Près du marché',
  'Derrière la chapelle',
  'Après la boulangerie',
  'Entrée du carrefour',
];
const LANDMARKS_EN = ['the market', 'the Total station', 'the pharmacy', 'the Presbyterian church', 'the junction', 'the primary school'];

function ascii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
}
/** E-mail spellings, computed once. */
const FIRST_ASCII = new Map(FIRST.map((f) => [f, ascii(f)]));
const LAST_ASCII = new Map(LAST.map((l) => [l, ascii(l)]));
const AGENCY_ASCII = new Map(AGENCIES.map((a) => [a, ascii(a)]));

function two(rng: Random): string {
  const n = rng.int(0, 99);
  return n < 10 ? `0${n}` : String(n);
}

export interface Contact {
  contact_name: string;
  contact_phone: string;
  contact_email: string;
  street_address: string;
}

export function contactOf(rng: Random, neighborhood: string, city: string, english: boolean): Contact {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const agency = rng.chance(0.35) ? rng.pick(AGENCIES) : null;
  const contact_name = agency ? `${last} ${agency}` : `${first} ${last}`;
  const contact_phone = `+237 6${rng.int(50, 99)} ${two(rng)} ${two(rng)} ${two(rng)}`;
  const domain = rng.pick(['example.com', 'example.net', 'example.org']);
  const contact_email = agency
    ? `contact@${LAST_ASCII.get(last)}-${AGENCY_ASCII.get(agency)}.${domain}`
    : `${FIRST_ASCII.get(first)}.${LAST_ASCII.get(last)}${rng.int(1, 999)}@${domain}`;
  const street_address = english
    ? rng.chance(0.5)
      ? `${rng.pick(['Behind', 'Opposite', 'Near'])} ${rng.pick(LANDMARKS_EN)}, ${neighborhood}, ${city}`
      : `${rng.int(1, 250)} ${rng.pick(['Hospital Road', 'Church Street', 'Market Street', 'Station Road', 'Main Street'])}, ${neighborhood}, ${city}`
    : rng.chance(0.5)
      ? `${rng.pick(DIRECTIONS_FR)}, ${neighborhood}, ${city}`
      : `Rue ${rng.int(1, 3)}.${String(rng.int(1, 999)).padStart(3, '0')}, ${neighborhood}, ${city}`;
  return { contact_name, contact_phone, contact_email, street_address };
}
