// The default theme's keyboard shortcuts (help: ?, next: n, previous: p, search: s).
// eslint-disable-next-line no-unused-vars -- the theme's own scripts read this global
var shortcuts = { help: 191, next: 78, previous: 80, search: 83 };
