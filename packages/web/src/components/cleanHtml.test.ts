import { describe, expect, it } from 'vitest';
import { cleanHtml } from './cleanHtml';

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
      '<p style="color: red; text-align: center">s</p>',
    );
    expect(cleanHtml('<p style="position: fixed">s</p>')).toBe('<p>s</p>');
  });

  it('keeps the text of unknown elements', () => {
    expect(cleanHtml('<blink>old</blink><marquee>news</marquee>')).toBe('oldnews');
  });
});
