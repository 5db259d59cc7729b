// Exact, structure-checked edits of the Code Mode owner's (`exec`) description.
// Codex renders the description as an intro, helpers, a "Shared MCP Types" block, then one Markdown
// section per nested tool (`### \`name\``, text, "exec tool declaration:", a ```ts fence), sections
// separated by one blank line, namespaces as `## <ns>` groups. Anything that does not match that
// structure is left untouched (callers report it) rather than edited by guesswork.

export interface MarkdownSection {
  readonly start: number;
  readonly end: number;
  /** Byte-exact `description.slice(start, end)`. */
  readonly text: string;
}

interface Line {
  readonly start: number;
  /** End of the line's content, before `\n`. */
  readonly end: number;
  readonly text: string;
  readonly inFence: boolean;
}

const TOOL_HEADING = /^### `([^`\r\n]+)`[ \t]*\r?$/;
// `#`/`##` headings end a section; `###` headings only when they are tool headings, because
// nested tool descriptions use their own `###` subheadings (multi_agent_v1__spawn_agent does).
const UPPER_HEADING = /^#{1,2}[ \t]/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Lines with fence state, so headings inside code blocks are never taken as structure. */
function scanLines(text: string): Line[] {
  const lines: Line[] = [];
  let fence: { char: string; len: number } | null = null;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const lineText = text.slice(pos, end);
    const m = FENCE.exec(lineText);
    if (fence === null) {
      lines.push({ start: pos, end, text: lineText, inFence: false });
      // Backtick fences cannot carry backticks in their info string (CommonMark).
      if (m && !(m[1]!.startsWith('`') && m[2]!.includes('`'))) fence = { char: m[1]![0]!, len: m[1]!.length };
    } else {
      lines.push({ start: pos, end, text: lineText, inFence: true });
      if (m && m[1]![0] === fence.char && m[1]!.length >= fence.len && m[2]!.trim() === '') fence = null;
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  return lines;
}

function isBoundary(line: Line): boolean {
  return !line.inFence && (UPPER_HEADING.test(line.text) || TOOL_HEADING.test(line.text));
}

/**
 * Checks the body looks like a Codex nested-tool section for `tool`: an "exec tool declaration:"
 * line, a ```ts fence declaring `tools.<tool>`, and nothing but blank lines after the fence.
 */
function isToolSectionBody(lines: readonly Line[], tool: string): boolean {
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.text.trim() === '') last--;
  const close = lines[last];
  if (!close || !close.inFence || !/^```[ \t]*\r?$/.test(close.text)) return false;
  for (let i = last - 1; i >= 2; i--) {
    const line = lines[i]!;
    if (line.inFence) continue;
    // The fence opener is the last line outside a fence before the closer.
    if (!/^```ts[ \t]*\r?$/.test(line.text)) return false;
    const declared = lines[i + 1]!.text.startsWith(`declare const tools: { ${tool}(`);
    return declared && /^exec tool declaration:[ \t]*\r?$/.test(lines[i - 1]!.text);
  }
  return false;
}

/**
 * The exact `### \`<tool>\`` section: its heading line through the line before the next `#`/`##`
 * heading or tool heading (outside code fences), or the end. Includes the trailing blank separator
 * line. null when absent, ambiguous (heading appears twice) or not shaped like a tool section.
 */
export function findNestedToolSection(description: string, tool: string): MarkdownSection | null {
  const lines = scanLines(description);
  let headingIndex = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.inFence) continue;
    const m = TOOL_HEADING.exec(line.text);
    if (m && m[1] === tool) {
      if (headingIndex !== -1) return null;
      headingIndex = i;
    }
  }
  if (headingIndex === -1) return null;
  let endIndex = lines.length;
  for (let i = headingIndex + 1; i < lines.length; i++) {
    if (isBoundary(lines[i]!)) {
      endIndex = i;
      break;
    }
  }
  if (!isToolSectionBody(lines.slice(headingIndex, endIndex), tool)) return null;
  const start = lines[headingIndex]!.start;
  const end = endIndex < lines.length ? lines[endIndex]!.start : description.length;
  return { start, end, text: description.slice(start, end) };
}

/**
 * The slice removeNestedToolSection cuts. Normally the section itself (its trailing blank line is
 * the separator before the next heading). For a section at the very end there is no next heading,
 * so the separator *before* it is cut instead and the text keeps its original ending.
 */
export function nestedToolSectionCut(description: string, tool: string): { start: number; end: number } | null {
  const section = findNestedToolSection(description, tool);
  if (!section) return null;
  if (section.end < description.length) return { start: section.start, end: section.end };
  let start = section.start;
  while (start > 0 && (description[start - 1] === '\n' || description[start - 1] === '\r')) start--;
  let end = section.end;
  while (end > section.start && /\s/.test(description[end - 1]!)) end--;
  return { start, end };
}

export function removeNestedToolSection(description: string, tool: string): { text: string; removed: boolean } {
  const cut = nestedToolSectionCut(description, tool);
  if (!cut) return { text: description, removed: false };
  return { text: description.slice(0, cut.start) + description.slice(cut.end), removed: true };
}

const INTRO_ANCHOR = 'All nested tools are available on the global `tools` object';
/** Exactly the clause removed; the anchor sentence then ends at "object." and still reads well. */
export const EXEC_COMMAND_INTRO_CLAUSE = ', for example `await tools.exec_command(...)`';

/** Removes the introductory `, for example \`await tools.exec_command(...)\`` clause (once, only after its anchor). */
export function removeExecCommandIntroExample(description: string): { text: string; removed: boolean } {
  const needle = INTRO_ANCHOR + EXEC_COMMAND_INTRO_CLAUSE;
  const at = description.indexOf(needle);
  // Two intros would be a structure we do not know; leave it for the caller to report.
  if (at === -1 || description.indexOf(needle, at + 1) !== -1) return { text: description, removed: false };
  const start = at + INTRO_ANCHOR.length;
  return {
    text: description.slice(0, start) + description.slice(start + EXEC_COMMAND_INTRO_CLAUSE.length),
    removed: true,
  };
}

export interface SanitizedOwnerDescription {
  readonly text: string;
  /** Nested tool names whose sections were removed, in removal order (apply_patch, exec_command). */
  readonly removedSections: string[];
  readonly introRemoved: boolean;
  /** `tools.exec_command` still occurs in `text` (e.g. unknown structure); the caller decides what that means. */
  readonly mentionsExecCommand: boolean;
}

/** Applies the independent extractors; each leaves the text unchanged when it does not recognize its target. */
export function sanitizeOwnerDescription(
  description: string,
  opts: { execCommand: boolean; applyPatch: boolean },
): SanitizedOwnerDescription {
  let text = description;
  const removedSections: string[] = [];
  let introRemoved = false;
  if (opts.applyPatch) {
    const r = removeNestedToolSection(text, 'apply_patch');
    if (r.removed) removedSections.push('apply_patch');
    text = r.text;
  }
  if (opts.execCommand) {
    const r = removeNestedToolSection(text, 'exec_command');
    if (r.removed) removedSections.push('exec_command');
    const intro = removeExecCommandIntroExample(r.text);
    introRemoved = intro.removed;
    text = intro.text;
  }
  return { text, removedSections, introRemoved, mentionsExecCommand: text.includes('tools.exec_command') };
}
