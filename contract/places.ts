/**
 * The places Mboa covers: the 12 cities with their real neighbourhoods. This catalog is
 * what the API reference lists as known places, what city and neighbourhood parameters
 * are checked against (with the places partner feeds bring, see the README), and what
 * the demo-data generator draws from, with the market levels its price model reads.
 * Tier 1 is the prime residential or business district (Bonapriso, Bastos), tier 2 the
 * established middle class areas, tier 3 the popular and peripheral ones.
 */

export type Tier = 1 | 2 | 3;

export interface Neighborhood {
  name: string;
  tier: Tier;
}

export interface City {
  name: string;
  /** Share of listings: portals are dominated by Douala and Yaoundé. */
  weight: number;
  /** Sale price level against Douala (1). */
  saleLevel: number;
  /** Rent level against Douala (1): rents differ less between cities than sale prices. */
  rentLevel: number;
  /** Share of English titles: the North-West and South-West regions write in English. */
  english: number;
  neighborhoods: Neighborhood[];
}

const n = (tier: Tier, ...names: string[]): Neighborhood[] => names.map((name) => ({ name, tier }));

export const CITIES: readonly City[] = [
  {
    name: 'Douala',
    weight: 34,
    saleLevel: 1,
    rentLevel: 1,
    english: 0.1,
    neighborhoods: [
      ...n(1, 'Bonapriso', 'Bonanjo', 'Akwa', 'Bali'),
      ...n(2, 'Deïdo', 'Bonamoussadi', 'Makepe', 'Kotto', 'Logpom', 'Cité des Palmiers', 'Ndogbong', 'Bessengue'),
      ...n(3, 'Japoma', 'PK14', 'Yassa', 'Bonabéri', 'New Bell', 'Ndokotti', 'Logbaba', 'Bépanda', 'Nyalla', 'Village', 'Mboppi'),
    ],
  },
  {
    name: 'Yaoundé',
    weight: 30,
    saleLevel: 0.95,
    rentLevel: 1,
    english: 0.1,
    neighborhoods: [
      ...n(1, 'Bastos', 'Golf', 'Santa Barbara', 'Quartier du Lac'),
      ...n(2, 'Omnisport', 'Nlongkak', 'Essos', 'Biyem-Assi', 'Etoudi', 'Ngousso', 'Tsinga', 'Elig-Essono', 'Mfandena'),
      ...n(3, 'Mvan', 'Odza', 'Mendong', 'Mvog-Mbi', 'Ekounou', 'Nkolbisson', 'Emana', 'Simbock', 'Mimboman', 'Nsimeyong'),
    ],
  },
  {
    name: 'Bafoussam',
    weight: 6,
    saleLevel: 0.4,
    rentLevel: 0.45,
    english: 0.05,
    neighborhoods: [
      ...n(1, 'Tamdja'),
      ...n(2, 'Banengo', 'Tyo-Ville', 'Kouogouo'),
      ...n(3, 'Djeleng', 'Kamkop', 'Famla', 'Ndiangdam', 'Houkaha'),
    ],
  },
  {
    name: 'Garoua',
    weight: 4,
    saleLevel: 0.35,
    rentLevel: 0.42,
    english: 0.05,
    neighborhoods: [
      ...n(1, 'Plateau'),
      ...n(2, 'Roumdé Adjia', 'Poumpoumré', 'Marouaré'),
      ...n(3, 'Yelwa', 'Lopéré', 'Djamboutou', 'Foulbéré', 'Kollere'),
    ],
  },
  {
    name: 'Bamenda',
    weight: 4,
    saleLevel: 0.38,
    rentLevel: 0.45,
    english: 0.85,
    neighborhoods: [
      ...n(1, 'Up Station'),
      ...n(2, 'Commercial Avenue', 'Nkwen', 'Mankon', 'Foncha Street'),
      ...n(3, 'Ntarikon', 'Old Town', 'Mile 4 Nkwen', 'Cow Street', 'Azire', 'Ntamulung'),
    ],
  },
  {
    name: 'Buea',
    weight: 4.5,
    saleLevel: 0.5,
    rentLevel: 0.6,
    english: 0.85,
    neighborhoods: [
      ...n(1, 'GRA', 'Clerks Quarters'),
      ...n(2, 'Molyko', 'Great Soppo', 'Small Soppo', 'Bonduma', 'Check Point'),
      ...n(3, 'Buea Town', 'Bokwango', 'Mile 16', 'Bomaka', 'Muea'),
    ],
  },
  {
    name: 'Limbe',
    weight: 3.5,
    saleLevel: 0.55,
    rentLevel: 0.6,
    english: 0.85,
    neighborhoods: [
      ...n(1, 'GRA', 'Man-O-War Bay'),
      ...n(2, 'Down Beach', 'Bota', 'Church Street'),
      ...n(3, 'Mile 4', 'New Town', 'Mabeta', 'Mile 2', 'Ngeme'),
    ],
  },
  {
    name: 'Kribi',
    weight: 4,
    saleLevel: 0.6,
    rentLevel: 0.65,
    english: 0.05,
    neighborhoods: [
      ...n(1, 'Lobé', 'Grand Batanga'),
      ...n(2, 'Mpalla', 'Londji', 'Ngoyé', 'Bwambé'),
      ...n(3, 'Dombé', 'Afan Mabé', 'Mokolo', 'Talla'),
    ],
  },
  {
    name: 'Maroua',
    weight: 2.5,
    saleLevel: 0.3,
    rentLevel: 0.38,
    english: 0.03,
    neighborhoods: [
      ...n(1, 'Domayo'),
      ...n(2, 'Pitoaré', 'Djarengol'),
      ...n(3, 'Kakataré', 'Dougoï', 'Palar', 'Founangué', 'Hardé', 'Zokok'),
    ],
  },
  {
    name: 'Ngaoundéré',
    weight: 3,
    saleLevel: 0.32,
    rentLevel: 0.4,
    english: 0.03,
    neighborhoods: [
      ...n(1, 'Joli Soir'),
      ...n(2, 'Baladji', 'Mbideng', 'Onaref'),
      ...n(3, 'Sabongari', 'Burkina', 'Bamyanga', 'Dang', 'Gadamabanga'),
    ],
  },
  {
    name: 'Bertoua',
    weight: 2,
    saleLevel: 0.28,
    rentLevel: 0.38,
    english: 0.03,
    neighborhoods: [
      ...n(1, 'Centre Administratif'),
      ...n(2, 'Enia', 'Nkolbikon'),
      ...n(3, 'Tigaza', 'Kpokolota', 'Mokolo', 'Ndemba', 'Monou'),
    ],
  },
  {
    name: 'Ebolowa',
    weight: 2.5,
    saleLevel: 0.3,
    rentLevel: 0.4,
    english: 0.03,
    neighborhoods: [...n(1, 'Mekalat'), ...n(2, 'Angalé', "Nko'ovos"), ...n(3, 'Nkoetyé', 'Abang', 'Ebolowa Si', 'New Bell')],
  },
];

/** The catalog's city names, in their usual spelling. */
export const CITY_NAMES: readonly string[] = CITIES.map((c) => c.name);

/** Each catalog city's neighbourhood names, in their usual spelling. */
export const NEIGHBORHOODS_BY_CITY: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  CITIES.map((c) => [c.name, c.neighborhoods.map((n) => n.name)]),
);
