// Run before the first paint (a classic script in the head, not a module): a room's page says so on <html>, so
// that the site's top bar, which the table replaces with its own, is never drawn and nothing moves once the
// table comes (the lobby keeps the bar).
if (/^\/rooms\/[A-Za-z0-9]+\/?$/.test(location.pathname)) document.documentElement.dataset.page = "room";
