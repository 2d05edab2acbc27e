import type { TeamMember } from './api/team-api';
import { matchMembers, mentionOf, mentionQueryAt } from './mentions';
import { replaceQuery } from './typed-query';

const TEAM: TeamMember[] = [
  { id: 'u1', username: 'owner', name: 'Sam Owner', role: 'admin' },
  { id: 'u2', username: 'sara.ali', name: 'Sara Ali', role: 'agent' },
  { id: 'u3', username: 'omar', name: 'عمر خالد', role: 'agent' },
  { id: 'u4', username: 'samir-2', name: 'Samir Haddad', role: 'agent' },
];

const usernames = (members: TeamMember[]) => members.map((member) => member.username);

describe('the @word being typed', () => {
  it('is read at the start of the text or after whitespace, up to the caret', () => {
    expect(mentionQueryAt('@sa', 3)).toEqual({ start: 0, end: 3, query: 'sa' });
    expect(mentionQueryAt('ok\n@', 4)).toEqual({ start: 3, end: 4, query: '' });
    expect(mentionQueryAt('cc @sara.al please', 11)).toEqual({ start: 3, end: 11, query: 'sara.al' });
    expect(mentionQueryAt('ask @عم', 7)).toEqual({ start: 4, end: 7, query: 'عم' });
  });

  it('is none inside an email, after the word ended, or with other punctuation', () => {
    expect(mentionQueryAt('bob@example', 11)).toBeNull();
    expect(mentionQueryAt('@sam done', 9)).toBeNull();
    expect(mentionQueryAt('@sam,', 5)).toBeNull();
    expect(mentionQueryAt('/sa', 3)).toBeNull();
  });
});

describe('the teammates a prefix finds', () => {
  it('matches username, name and each word of the name from their start, ignoring case', () => {
    expect(usernames(matchMembers(TEAM, '', null))).toEqual(['owner', 'sara.ali', 'omar', 'samir-2']);
    expect(usernames(matchMembers(TEAM, 'SA', null))).toEqual(['owner', 'sara.ali', 'samir-2']);
    expect(usernames(matchMembers(TEAM, 'sara.', null))).toEqual(['sara.ali']);
    expect(usernames(matchMembers(TEAM, 'hadd', null))).toEqual(['samir-2']);
    expect(usernames(matchMembers(TEAM, 'خا', null))).toEqual(['omar']);
    expect(usernames(matchMembers(TEAM, 'li', null))).toEqual([]);
  });

  it('never offers the writer', () => {
    expect(usernames(matchMembers(TEAM, 'sa', 'u1'))).toEqual(['sara.ali', 'samir-2']);
  });

  it('shows at most eight', () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ id: `a${n}`, username: `agent${n}`, name: `Agent ${n}`, role: 'agent' }));
    expect(matchMembers(many, 'ag', null)).toHaveLength(8);
  });
});

describe('picking a teammate', () => {
  it('replaces the typed word with @username and a space, the caret after it', () => {
    const text = 'cc @sa';
    const typed = mentionQueryAt(text, 6);
    expect(typed).not.toBeNull();
    if (!typed) return;
    const member = TEAM[1];
    if (!member) return;
    expect(replaceQuery(text, typed, mentionOf(member))).toEqual({ text: 'cc @sara.ali ', caret: 13 });
  });
});
