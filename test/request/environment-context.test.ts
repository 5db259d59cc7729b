import { expect } from 'chai';
import { parseContext, workspaceFromInput } from '../../host/request/environment-context.ts';
import { capturedRequest } from '../support/fixtures.ts';

const ctx = (fs: string, cwd = '/w/p'): string => `\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n  <filesystem>${fs}</filesystem>\n`;
const user = (text: string): unknown => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('the workspace of a request (environment context)', () => {
  it('reads cwd and workspace roots from a captured Codex request', () => {
    const body = capturedRequest('a-default-gpt55-001').body as { input: unknown[] };
    const ws = workspaceFromInput(body.input);
    expect(ws).to.not.equal(null);
    expect(ws!.cwd).to.match(/^\//);
    expect(ws!.roots).to.deep.equal([ws!.cwd]);
  });

  it('keeps the roots the sandbox lets commands read: unrestricted, :root, or a covering path entry', () => {
    const roots = '<workspace_roots><root>/w/p</root><root>/w/q/</root></workspace_roots>';
    expect(parseContext(ctx(`${roots}<permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile>`))!.roots).to.deep.equal(['/w/p', '/w/q']);
    expect(parseContext(ctx(`${roots}<permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile>`))!.roots).to.deep.equal(['/w/p', '/w/q']);
    expect(parseContext(ctx(`${roots}<permission_profile type="managed"><file_system type="restricted"><entry access="write"><path>/w/p</path></entry><entry access="write"><special>:slash_tmp</special></entry></file_system></permission_profile>`))!.roots).to.deep.equal(['/w/p']);
    expect(parseContext(ctx(`${roots}<permission_profile type="managed"><file_system type="restricted"></file_system></permission_profile>`))!.roots).to.deep.equal([]);
  });

  it('decodes XML entities, normalizes paths, falls back to cwd without roots; the newest context wins', () => {
    expect(parseContext(ctx('', '/w/a&amp;b/./c/..'))).to.deep.equal({ cwd: '/w/a&b', roots: ['/w/a&b'] });
    expect(parseContext(ctx('', 'relative'))).to.equal(null);
    const input = [user(`<environment_context>${ctx('', '/old')}</environment_context>`), { type: 'message', role: 'assistant', content: [] }, user(`<environment_context>${ctx('', '/new')}</environment_context>`), user('hi')];
    expect(workspaceFromInput(input)!.cwd).to.equal('/new');
    expect(workspaceFromInput([user('no context')])).to.equal(null);
    // Only user messages count: a developer or tool output cannot declare the workspace.
    expect(workspaceFromInput([{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: `<environment_context>${ctx('', '/dev')}</environment_context>` }] }])).to.equal(null);
  });
});
