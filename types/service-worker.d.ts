// What the server writes into the service worker's script as it serves it (src/foursquare/web/routes/pwa.py):
// the addresses of the page's files to keep, such as "/static/app.js".
declare const __FILES__: string[];
