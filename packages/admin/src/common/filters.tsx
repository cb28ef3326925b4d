/**
 * List filters that appear when the list's route takes them (the API description's query parameters): a search box
 * (`q`, on lists with a natural key: an order's id or invoice number, a code, a title, a username), a learner's public
 * id (`userPublicId`, the `User123456` staff see) and a range of Tehran days
 * (`from`, `to`). A list names the ones it wants; one its route does not take is not shown, so nothing is sent that
 * the API would refuse.
 */
import type { ReactElement } from 'react';
import { SearchInput, TextInput } from 'react-admin';
import { listFilters } from '../api/contract';
import { TehranDayInput } from './pickers';

const INPUTS: Record<string, (source: string) => ReactElement> = {
  q: (source) => <SearchInput key={source} source={source} alwaysOn />,
  userPublicId: (source) => <TextInput key={source} source={source} alwaysOn slotProps={{ htmlInput: { dir: 'ltr' } }} />,
  from: (source) => <TehranDayInput key={source} source={source} alwaysOn />,
  to: (source) => <TehranDayInput key={source} source={source} alwaysOn />,
};

/** The inputs of `names` (of q, userPublicId, from, to) that `resource`'s list route takes. */
export function optionalFilters(resource: string, names: (keyof typeof INPUTS)[]): ReactElement[] {
  const taken = listFilters(resource);
  return names.filter((name) => name in taken).map((name) => (INPUTS[name] as (source: string) => ReactElement)(name));
}
