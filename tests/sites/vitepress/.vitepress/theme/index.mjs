// The default theme, plus <roofline-calculator>: defined in the browser only (pages are also
// rendered on the server at build time, where there is no customElements).
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (typeof window !== 'undefined') import('roofline-lab/calculator');
  },
};
