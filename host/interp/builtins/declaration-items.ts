// A declaration's words once expanded (`declare -a x=(1 2) y`): what the evaluator hands the
// declaration builtins for a DeclClause, and what those leave in `$_`. Apart from the builtins
// (variables.ts) so that the evaluator can hold them without importing a family.
import type { Assign } from '../syntax/ast.ts';

export interface DeclItem { flag?: string; name?: string; index?: string; value?: string; append?: boolean; arrayAssign?: Assign; assoc?: boolean }

/** What a declaration leaves in `$_`: its last word as bash sees it (`declare a=(1 2)` leaves `a`). */
export function declLastArg(variant: string, items: DeclItem[]): string {
  const last = items[items.length - 1];
  return !last ? variant : last.flag ?? (last.value !== undefined ? `${last.name}${last.index !== undefined ? `[${last.index}]` : ''}${last.append ? '+=' : '='}${last.value}` : last.name!);
}
