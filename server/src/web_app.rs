//! The built web app at `/`. Hashed assets (`/assets/…`, a content hash in each name) are cached
//! for a year and sent precompressed: the build writes `.br` and `.gz` copies beside each file and
//! the browser gets the best one it accepts. Everything else (`index.html`, the service worker,
//! translations) is revalidated on every use, so a new release is picked up at once. Unknown
//! paths outside `/assets/` get `index.html` so client routes load, except a missing file asked
//! for by name (an icon, a script), which is a 404.

use std::path::{Path, PathBuf};

use actix_files::NamedFile;
use actix_web::http::header::{
    self, AcceptEncoding, ContentEncoding, Encoding, Header, HeaderValue, Preference, Quality,
};
use actix_web::{HttpRequest, HttpResponse, ResponseError, guard, web};

use crate::error::no_route;

/// Where the hashed assets live, below the web directory.
const ASSETS_PREFIX: &str = "assets/";
/// A hashed name changes with its content, so a cached copy never goes stale.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Kept by the browser but checked with the server (ETag) before each use.
const REVALIDATE: &str = "no-cache";
/// The precompressed copies an asset may have beside it, in the order we prefer them.
const PRECOMPRESSED: [(ContentEncoding, &str); 2] = [
    (ContentEncoding::Brotli, "br"),
    (ContentEncoding::Gzip, "gz"),
];

/// The directory of the built web app (`web/dist`).
struct WebDir(PathBuf);

/// Serves the web app when `web_dir` holds a build; without one only the API answers.
pub fn serve_web_app(cfg: &mut web::ServiceConfig, web_dir: &Path) {
    if !web_dir.join("index.html").exists() {
        return;
    }
    cfg.service(
        web::resource("/{path:.*}")
            .app_data(web::Data::new(WebDir(web_dir.to_path_buf())))
            .route(
                web::route()
                    .guard(guard::Any(guard::Get()).or(guard::Head()))
                    .to(serve_file),
            )
            .default_service(web::to(crate::error::unrouted)),
    );
}

async fn serve_file(req: HttpRequest, web_dir: web::Data<WebDir>) -> HttpResponse {
    let path = req.match_info().query("path");
    let file = relative_path(path)
        .map(|relative| web_dir.0.join(relative))
        .filter(|file| file.is_file());
    match (file, path.starts_with(ASSETS_PREFIX)) {
        (Some(file), true) => serve_asset(&req, &file).await,
        // A missing asset is an old build's: the page that asks for it must not get HTML.
        (None, true) => not_found(&req),
        // A missing file (an icon, a manifest) is not a client route.
        (None, false) if names_a_file(path) => not_found(&req),
        (file, false) => {
            let file = file.unwrap_or_else(|| web_dir.0.join("index.html"));
            match NamedFile::open_async(&file).await {
                Ok(named) => with_cache_control(named.into_response(&req), REVALIDATE),
                Err(_) => not_found(&req),
            }
        }
    }
}

/// The extensions of the files a browser asks for by name; a client route (a BSUID holds a
/// dot) has none of them.
const FILE_EXTENSIONS: [&str; 14] = [
    "css",
    "gif",
    "ico",
    "jpeg",
    "jpg",
    "js",
    "json",
    "map",
    "png",
    "svg",
    "txt",
    "webmanifest",
    "webp",
    "woff2",
];

/// Whether `path`'s last segment ends in the extension of a file a browser asks for by name.
fn names_a_file(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or_default();
    last.rsplit_once('.').is_some_and(|(_, extension)| {
        FILE_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str())
    })
}

fn not_found(req: &HttpRequest) -> HttpResponse {
    no_route(req.method(), req.path()).error_response()
}

/// A hashed asset, precompressed when the browser accepts a copy the build wrote.
async fn serve_asset(req: &HttpRequest, file: &Path) -> HttpResponse {
    let accepted = AcceptEncoding::parse(req).ok();
    // The copy of the highest quality the browser gives; on a tie, the order we prefer.
    let mut copy: Option<(Quality, ContentEncoding, PathBuf)> = None;
    for (encoding, extension) in PRECOMPRESSED {
        let quality = accepted
            .as_ref()
            .and_then(|accept| quality_of(accept, encoding))
            .filter(|quality| *quality > Quality::ZERO);
        let path = PathBuf::from(format!("{}.{extension}", file.display()));
        if let Some(quality) = quality
            && copy.as_ref().is_none_or(|(best, ..)| quality > *best)
            && path.is_file()
        {
            copy = Some((quality, encoding, path));
        }
    }
    let copy = copy.map(|(_, encoding, path)| (encoding, path));
    let opened = match &copy {
        Some((encoding, copy)) => NamedFile::open_async(copy).await.map(|named| {
            // The copy is the original's bytes: its type and name are the original's.
            let extension = file.extension().and_then(|ext| ext.to_str()).unwrap_or("");
            named
                .set_content_type(actix_files::file_extension_to_mime(extension))
                .set_content_encoding(*encoding)
        }),
        None => NamedFile::open_async(file).await,
    };
    let Ok(named) = opened else {
        return not_found(req);
    };
    let mut response = with_cache_control(
        named.disable_content_disposition().into_response(req),
        IMMUTABLE,
    );
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// The quality `Accept-Encoding` gives `encoding`, by name or else by `*`; None when neither
/// is listed.
fn quality_of(accept: &AcceptEncoding, encoding: ContentEncoding) -> Option<Quality> {
    let listed = |wanted: &Preference<Encoding>| {
        accept
            .iter()
            .find(|item| &item.item == wanted)
            .map(|item| item.quality)
    };
    listed(&Preference::Specific(Encoding::Known(encoding))).or_else(|| listed(&Preference::Any))
}

fn with_cache_control(mut response: HttpResponse, policy: &'static str) -> HttpResponse {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

/// `path` below the web directory, or None when a segment could climb out of it or names a
/// hidden file (`..`, `.vite`, a backslash).
fn relative_path(path: &str) -> Option<PathBuf> {
    if path.is_empty() {
        return Some(PathBuf::from("index.html"));
    }
    let safe = path
        .split('/')
        .all(|segment| !segment.is_empty() && !segment.starts_with('.') && !segment.contains('\\'));
    safe.then(|| PathBuf::from(path))
}
