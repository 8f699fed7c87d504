import { describe, expect, it, vi } from 'vitest';
import { cleanHtml, cleanHtmlNodes, placeCleanHtml } from './cleanHtml';

describe('cleanHtml (the console’s second line behind the server’s sanitiser)', () => {
  it('drops scripts, styles, frames, forms and foreign (svg/math) content', () => {
    expect(cleanHtml('<p>a<script>alert(1)</script>b</p><style>p{}</style><iframe src="https://x"></iframe>')).toBe('<p>ab</p>');
    expect(cleanHtml('<svg onload="alert(1)"><a href="https://x">in</a></svg>c')).toBe('c');
    expect(cleanHtml('<math><mi>x</mi></math><template><img src=x onerror=alert(1)></template>d')).toBe('d');
    expect(cleanHtml('<form action="https://evil"><input name="p">表单</form>')).toBe('表单');
    expect(cleanHtml('<!-- note --><p>e</p>')).toBe('<p>e</p>');
  });

  it('removes event handlers and attributes outside the allow-list', () => {
    expect(cleanHtml('<p onclick="x()" class="ant-btn" id="i" data-x="1">p</p>')).toBe('<p>p</p>');
    expect(cleanHtml('<img src="a.png" onerror="alert(1)" alt="图">')).toBe('<img src="a.png" alt="图">');
  });

  it('refuses javascript:, vbscript: and data: links however they are disguised', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' java\tscript:alert(1)', 'vbscript:x', 'data:text/html,<script>1</script>']) {
      expect(cleanHtml(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
    }
    expect(cleanHtml('<img src="javascript:alert(1)">')).toBe('<img>');
  });

  it('keeps safe links (opening in a new tab without the opener), images and formatting', () => {
    expect(cleanHtml('<a href="https://example.com/a">a</a>')).toBe('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">a</a>');
    expect(cleanHtml('<a href="#top" target="_top">t</a>')).toBe('<a href="#top">t</a>');
    const html = '<h3>标题</h3><ul><li><strong>一</strong></li></ul><table><tbody><tr><td colspan="2">格</td></tr></tbody></table><img src="data:image/png;base64,iVBO" alt="">';
    expect(cleanHtml(html)).toBe(html);
  });

  it('keeps only the allowed inline styles', () => {
    expect(cleanHtml('<p style="color: red; position: fixed; background-image: url(https://x/a.png); text-align: center">s</p>')).toBe(
      '<p style="color: red; text-align: center;">s</p>',
    );
    expect(cleanHtml('<p style="position: fixed">s</p>')).toBe('<p>s</p>');
  });

  it('filters styles however they arrive, including under the attribute name the cleaner uses inside', () => {
    expect(cleanHtml('<p data-hl-style="position: fixed; color: red">s</p>')).toBe('<p style="color: red;">s</p>');
    expect(cleanHtml('<p STYLE="position: fixed" style="color: blue">s</p>')).toBe('<p>s</p>');
  });

  it('keeps the text of unknown elements', () => {
    expect(cleanHtml('<blink>old</blink><marquee>news</marquee>')).toBe('oldnews');
  });

  it('places the cleaned nodes into the page with their allowed styles set through the DOM, never as markup', () => {
    const box = document.createElement('div');
    const setAttribute = vi.spyOn(Element.prototype, 'setAttribute');
    placeCleanHtml(box, '<p style="color: red; position: fixed">红<span style="font-weight: bold">字</span></p><p>二</p>');
    expect(setAttribute.mock.calls.filter(([name]) => name === 'style')).toEqual([]);
    setAttribute.mockRestore();
    const [first, second] = Array.from(box.children) as HTMLElement[];
    expect(first!.style.color).toBe('red');
    expect(first!.style.position).toBe('');
    expect((first!.firstElementChild as HTMLElement).style.fontWeight).toBe('bold');
    expect(box.textContent).toBe('红字二');
    expect(second!.getAttribute('style')).toBeNull();
  });

  it('decodes entities once and keeps markup in text as text', () => {
    expect(cleanHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &quot;</p>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; "</p>');
    const [disguised, titled] = Array.from(cleanHtmlNodes('<a href="java&#115;cript:alert(1)">x</a><a title="&lt;b&gt;">y</a>').children);
    expect(disguised!.getAttributeNames()).toEqual([]);
    expect(titled!.getAttribute('title')).toBe('<b>');
  });

  it('copes with broken markup: unclosed, stray and mis-nested tags', () => {
    expect(cleanHtml('<p><b>粗<i>斜</b>文</p></div><p>二')).toBe('<p><b>粗<i>斜</i></b>文</p><p>二</p>');
    expect(cleanHtml('<script>never closed <p>x</p>')).toBe('');
    expect(cleanHtml('<<p>>a</p')).toContain('a');
  });
});
