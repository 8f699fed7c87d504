import { describe, expect, it } from 'vitest';
import { dateField, idField, integerField, isCalendarDate, multilineText, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { M } from './messages';

const messageOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe('the input rules of the contract', () => {
  it('ids: a positive integer within the 32-bit columns, or its decimal digits; nothing that merely converts to one', () => {
    const id = idField('bad');
    for (const ok of [1, '1', '0042', LIMITS.maxId, String(LIMITS.maxId)]) expect(id.safeParse(ok).success, String(ok)).toBe(true);
    expect(id.parse('0042')).toBe(42);
    for (const bad of [true, false, [1], ['1'], { valueOf: () => 1 }, '1e0', '1.0', ' 1', '1 ', '+1', '-1', '0x1', '', 0, -1, 1.5, LIMITS.maxId + 1, NaN, Infinity, null, undefined]) {
      expect(messageOf(id.safeParse(bad)), JSON.stringify(bad) ?? String(bad)).toBe('bad');
    }
  });

  it('pages and limits follow the same rule, with their defaults and bounds', () => {
    expect(pageQuery.parse({})).toEqual({ page: 1, limit: LIMITS.pageSize });
    expect(pageQuery.parse({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    expect(messageOf(pageQuery.safeParse({ page: true }))).toBe(M.pageInvalid);
    expect(messageOf(pageQuery.safeParse({ limit: '101' }))).toBe(M.limitInvalid);
    expect(messageOf(integerField('n', 1, 2).safeParse('3'))).toBe('n');
  });

  it('text: trimmed; control characters and lone surrogates refused, whole characters of any plane kept', () => {
    const text = plainText();
    expect(text.parse('  名称 ')).toBe('名称');
    expect(text.parse('emoji 😀 and 𠀀')).toBe('emoji 😀 and 𠀀');
    for (const bad of ['a\u0000b', 'a\u0007', 'line\nbreak', 'tab\there', 'del\u007f', 'esc\u001b[0m', 'half\ud83d', '\ude00half', 'x\udc00\ud800y']) {
      expect(messageOf(text.safeParse(bad)), JSON.stringify(bad)).toBe(M.textInvalidChars);
    }
    // Required text says it is required first, then what is wrong with it.
    expect(messageOf(requiredString('必填').safeParse('   '))).toBe('必填');
    expect(messageOf(requiredString('必填').safeParse('\u0000'))).toBe(M.textInvalidChars);
  });

  it('text of several lines keeps tabs and line breaks, and refuses the other controls', () => {
    expect(multilineText().parse('<p>一</p>\r\n\t<p>二</p>')).toBe('<p>一</p>\r\n\t<p>二</p>');
    for (const bad of ['a\u0000', 'a\u000bb', 'a\u001f', '\ud800']) expect(messageOf(multilineText().safeParse(bad))).toBe(M.textInvalidChars);
  });

  it('a search drops what it cannot search for and keeps the rest', () => {
    expect(pageQuery.parse({ search: ' ab\u0000c\u0007d\ud800 ' }).search).toBe('abcd');
    expect(pageQuery.parse({ search: '\u0000' }).search).toBe('');
    expect(messageOf(pageQuery.safeParse({ search: 'x'.repeat(LIMITS.searchMax + 1) }))).toBe(M.searchTooLong);
  });

  it('dates: a real calendar day written yyyy-MM-dd, within the range', () => {
    const date = dateField('格式');
    for (const ok of ['2024-02-29', LIMITS.dateMin, LIMITS.dateMax, ' 2025-01-01 ']) expect(date.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['2025-02-29', '2024-02-30', '2024-13-01', '2024-00-10', '9999-99-99', '2024-1-1', '20240101', '+02024-01-01', '2024-01-01T00:00:00Z', '']) {
      expect(messageOf(date.safeParse(bad)), bad).toBe('格式');
    }
    for (const far of ['1899-12-31', '2101-01-01', '9999-12-31', '0000-01-01']) expect(messageOf(date.safeParse(far)), far).toBe(M.dateOutOfRange);
    expect(messageOf(dateField('格式', '范围').safeParse('9999-12-31'))).toBe('范围');
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
  });
});
