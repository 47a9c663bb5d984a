// The reference page: Swagger UI showing the gateway's merged description. "Try it out" is off: every merchant
// route needs a request signature, which a browser form cannot make (see the description's Signing section).
window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    supportedSubmitMethods: [],
    defaultModelsExpandDepth: 0,
  });
});
