import { describe, expect, it } from 'vitest';
import { pruneCss, requiredClasses, wordsOf } from './prune-css';

describe('pruneCss', () => {
  const used = wordsOf('h("div",{className:"wm-card btn"}); const x = `badge badge-primary`;');

  it('keeps rules whose classes the code names and drops the others', () => {
    expect(pruneCss('.btn{color:red}.table td{padding:0}.wm-card .btn:hover{color:blue}', used)).toBe(
      '.btn{color:red}.wm-card .btn:hover{color:blue}',
    );
  });

  it('keeps element, attribute, :host and custom-property rules', () => {
    const css = ':host{--wm-primary:#333}h1,h2{margin:0}[data-x]{top:0}*,:before{box-sizing:border-box}';
    expect(pruneCss(css, used)).toBe(css);
  });

  it('drops what starts at the document, which nothing in a shadow root matches', () => {
    expect(pruneCss(':root,:host{--a:1}html{color:red}body .btn{margin:0}.btn{top:0}', used)).toBe(
      ':host{--a:1}.btn{top:0}',
    );
  });

  it('drops only the selectors of a list that cannot match', () => {
    expect(pruneCss('.btn,.pager-item,a{color:red}', used)).toBe('.btn,a{color:red}');
  });

  it('ignores classes inside :not(), :is() and attribute values', () => {
    expect(requiredClasses('.btn:not(.pager-item) [href$=".pdf"]:is(.x,.y)')).toEqual(['btn']);
    expect(pruneCss('.btn:not(.toast){color:red}', used)).toBe('.btn:not(.toast){color:red}');
  });

  it('prunes inside @media and drops it when empty; keeps @keyframes as they are', () => {
    const css =
      '@media (max-width:600px){.btn{width:100%}.toast{left:0}}@media print{.toast{display:none}}@keyframes spin{to{transform:rotate(1turn)}}';
    expect(pruneCss(css, used)).toBe(
      '@media (max-width:600px){.btn{width:100%}}@keyframes spin{to{transform:rotate(1turn)}}',
    );
  });

  it('is not fooled by braces in strings and comments', () => {
    expect(pruneCss('.btn:after{content:"}{"}/* { */.toast{color:red}', used)).toBe(
      '.btn:after{content:"}{"}',
    );
  });

  it('keeps statements such as @import', () => {
    expect(pruneCss('@import url(x.css);.toast{color:red}.btn{color:blue}', used)).toBe(
      '@import url(x.css);.btn{color:blue}',
    );
  });
});
