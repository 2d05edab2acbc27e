//! The OpenAPI description as an HTML page for people: every route by area, with what it
//! takes and answers. Rendered on the server, so the page needs no script and no CDN.

use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::{OpenApi, RefOr};

use crate::search_text::escape_into;

/// A route's operations, in the order the page lists them.
fn operations(item: &PathItem) -> [(&'static str, &Option<Operation>); 6] {
    [
        ("GET", &item.get),
        ("HEAD", &item.head),
        ("POST", &item.post),
        ("PUT", &item.put),
        ("PATCH", &item.patch),
        ("DELETE", &item.delete),
    ]
}

/// The whole page.
pub fn render(doc: &OpenApi) -> String {
    let mut out = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Parley API</title><style>body{font-family:system-ui,sans-serif;margin:1rem;\
         max-width:60rem}code{background:#f3f3f3;padding:0 .2em;overflow-wrap:anywhere}section{border-top:1px solid #ddd;\
         padding:.5rem 0}h3{font-size:1rem;margin:.3rem 0}small{color:#555}</style></head><body>",
    );
    out.push_str("<h1>Parley API</h1><p>The machine-readable document: <a href=\"/api/openapi.json\">/api/openapi.json</a> (OpenAPI 3.1).</p>");
    for tag in doc.tags.iter().flatten() {
        out.push_str("<h2>");
        escape_into(&mut out, &tag.name);
        out.push_str("</h2>");
        if let Some(description) = &tag.description {
            out.push_str("<p>");
            escape_into(&mut out, description);
            out.push_str("</p>");
        }
        for (path, item) in &doc.paths.paths {
            for (name, operation) in operations(item) {
                let Some(operation) = operation else {
                    continue;
                };
                if operation.tags.iter().flatten().any(|t| *t == tag.name) {
                    operation_html(&mut out, name, path, operation);
                }
            }
        }
    }
    out.push_str("</body></html>");
    out
}

/// One route: method and path, summary, whether it needs a token, and its answers.
fn operation_html(out: &mut String, method: &str, path: &str, operation: &Operation) {
    out.push_str("<section><h3><code>");
    out.push_str(method);
    out.push(' ');
    escape_into(out, path);
    out.push_str("</code></h3>");
    if let Some(summary) = &operation.summary {
        out.push_str("<p>");
        escape_into(out, summary);
        out.push_str("</p>");
    }
    if operation.security.is_some() {
        out.push_str("<p><small>Needs a bearer access token.</small></p>");
    }
    out.push_str("<ul>");
    for (status, response) in &operation.responses.responses {
        out.push_str("<li><code>");
        escape_into(out, status);
        out.push_str("</code> ");
        if let RefOr::T(response) = response {
            escape_into(out, &response.description);
        }
        out.push_str("</li>");
    }
    out.push_str("</ul></section>");
}
