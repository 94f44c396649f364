// VitePress settings for <roofline-calculator> (docs/embedding.md): Vue must leave the custom
// element to the browser.
export default {
  title: 'Roofline Lab in VitePress',
  lang: 'en',
  head: [['link', { rel: 'icon', href: '/favicon.svg' }]],
  vue: {
    template: { compilerOptions: { isCustomElement: (tag) => tag === 'roofline-calculator' } },
  },
  themeConfig: {
    nav: [{ text: 'Calculators', link: '/' }, { text: 'Decoding', link: '/guide/decode' }],
  },
};
