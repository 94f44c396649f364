// The default theme's keyboard shortcuts (help: ?, next: n, previous: p, search: s).
var shortcuts = { help: 191, next: 78, previous: 80, search: 83 };
