// Starts Swagger UI on the page's OpenAPI document. A file of its own: the page's
// Content-Security-Policy allows no inline script.
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('reference');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    // No call to the public validator service: nothing leaves this origin.
    validatorUrl: null,
    syntaxHighlight: { activated: true, theme: 'agate' },
    // Demo mode: the demo Starter key, so the first "Try it out" answers 200.
    onComplete: function () {
      var key = root.getAttribute('data-demo-key');
      if (key) window.ui.preauthorizeApiKey('ApiKeyAuth', key);
    },
  });
});
