import { countryList } from '@shared/contract/lists';
import type { Country } from '@shared/schemas/lists';
import { client } from '@widgets/core/api';
import { useEffect, useState } from 'react';

let cache: Country[] | null = null;

/** GET /countries/list, once per page load. */
export function useCountries(): Country[] {
  const [countries, setCountries] = useState<Country[]>(cache ?? []);
  useEffect(() => {
    if (cache) return;
    let alive = true;
    client
      .call(countryList)
      .then((res) => {
        cache = res.data;
        if (alive) setCountries(res.data);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  return countries;
}
