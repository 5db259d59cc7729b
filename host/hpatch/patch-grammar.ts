// The hpatch tool's Lark grammar: apply_patch's envelope (models are trained on `*** Begin Patch`,
// `*** Update File:` and `+` lines) with anchored hunk headers instead of context lines. The router
// validates it at startup like any plugin grammar; patch-parser.ts is the authority on what it means.
export const HPATCH_GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line*
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? read_tag? edit*

filename: /(.+)/
change_move: "*** Move to: " filename LF
read_tag: "*** Tag: " TAG LF
edit: "@@ " operation LF add_line*
operation: "replace " range | "delete " range | "insert before " ANCHOR | "insert after " ANCHOR | "insert at start" | "insert at end"
range: ANCHOR | ANCHOR "-" ANCHOR
add_line: "+" /(.*)/ LF

ANCHOR: /[1-9][0-9]*:[0-9a-f]{4}/
TAG: /[0-9a-f]{8}/
%import common.LF
`;
