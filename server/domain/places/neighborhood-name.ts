/**
 * The display name of the quarter a group's rows are filed under: the gazetteer's name of
 * the top-level quarter (its sub-quarters' rows, `Akwa I`, count under Akwa), else the
 * rows' own name (places beyond the gazetteer). For the market tables' SQL.
 */
export const neighborhoodName = (cityKey: string, key: string, fallback: string) =>
  `coalesce((SELECT q.name FROM neighborhoods q WHERE q.city_key = ${cityKey} AND q.key = ${key} AND q.parent_name IS NULL LIMIT 1),
            ${fallback})`;
