//! How a customer's file is answered, wherever it is served: only the Cloud API's media types
//! (anything else as `application/octet-stream`), never sniffed, inline only for what a browser
//! shows without running script, and sandboxed so that even a file opened directly can never
//! run script in Parley's origin.

use actix_web::HttpResponse;
use actix_web::http::header::{
    self, Charset, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
    HeaderValue,
};

use crate::visible::is_hidden;

/// The media types the Cloud API carries; a file of any other type is sent as bytes.
const ALLOWED: [&str; 18] = [
    "image/jpeg",
    "image/png",
    "image/webp",
    "video/mp4",
    "video/3gpp",
    "audio/aac",
    "audio/amr",
    "audio/mpeg",
    "audio/mp4",
    "audio/ogg",
    "text/plain",
    "application/pdf",
    "application/vnd.ms-powerpoint",
    "application/msword",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
];

/// Whatever a stored file claims to be, a file of an unknown type is only ever downloaded.
const OPAQUE: &str = "application/octet-stream";

/// Forbids script, plugins, forms and same-origin access to a file opened as a page.
const FILE_POLICY: &str = "sandbox";

/// The type a file is served as: its own when allowed (parameters such as `codecs` dropped,
/// except a text file's charset), else `application/octet-stream`.
pub fn served_type(mime_type: &str) -> String {
    let Ok(parsed) = mime_type.trim().parse::<mime::Mime>() else {
        return OPAQUE.to_string();
    };
    let essence = parsed.essence_str().to_ascii_lowercase();
    if !ALLOWED.contains(&essence.as_str()) {
        return OPAQUE.to_string();
    }
    match parsed.get_param(mime::CHARSET) {
        Some(charset) if essence == "text/plain" => {
            let charset = charset.as_str();
            if charset
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                format!("{essence}; charset={charset}")
            } else {
                essence
            }
        }
        _ => essence,
    }
}

/// Shown in place: pictures, sound, video and PDFs (which browsers draw without page script).
fn shown_inline(served: &str) -> bool {
    ["image/", "video/", "audio/"]
        .iter()
        .any(|kind| served.starts_with(kind))
        || served == "application/pdf"
}

/// RFC 6266: `inline` or `attachment`, with the name as plain ASCII (`filename`) and, when it
/// has other characters, exactly in UTF-8 (`filename*`).
pub fn disposition(served: &str, filename: &str) -> ContentDisposition {
    let disposition = if shown_inline(served) {
        DispositionType::Inline
    } else {
        DispositionType::Attachment
    };
    // A bidi override would show `invoice\u{202E}fdp.exe` as `invoiceexe.pdf`.
    let name: String = filename
        .chars()
        .filter(|c| !c.is_control() && !is_hidden(*c))
        .collect();
    let name = name.trim();
    let mut parameters = Vec::new();
    if !name.is_empty() {
        let ascii: String = name
            .chars()
            .map(|c| match c {
                ' '..='~' if c != '"' && c != '\\' => c,
                _ => '_',
            })
            .collect();
        if ascii != name {
            parameters.push(DispositionParam::FilenameExt(ExtendedValue {
                charset: Charset::Ext("UTF-8".into()),
                language_tag: None,
                value: name.as_bytes().to_vec(),
            }));
        }
        parameters.insert(0, DispositionParam::Filename(ascii));
    }
    ContentDisposition {
        disposition,
        parameters,
    }
}

/// Sets the headers of a customer file's answer, replacing whatever was set before.
pub fn protect(response: &mut HttpResponse, mime_type: &str, filename: &str) {
    let served = served_type(mime_type);
    let disposition = disposition(&served, filename).to_string();
    let headers = response.headers_mut();
    let mut set = |name, value: String| {
        // Both values are built from visible ASCII above, so they are valid header values.
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    };
    set(header::CONTENT_TYPE, served);
    set(header::CONTENT_DISPOSITION, disposition);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff".into());
    set(header::CONTENT_SECURITY_POLICY, FILE_POLICY.into());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_cloud_api_types_keep_their_type() {
        assert_eq!(served_type("image/jpeg"), "image/jpeg");
        assert_eq!(served_type("audio/ogg; codecs=opus"), "audio/ogg");
        assert_eq!(
            served_type("text/plain; charset=utf-8"),
            "text/plain; charset=utf-8"
        );
        for hostile in [
            "text/html",
            "image/svg+xml",
            "application/xhtml+xml",
            "text/xml",
            "application/javascript",
            "",
            "nonsense",
        ] {
            assert_eq!(served_type(hostile), OPAQUE, "{hostile}");
        }
    }

    #[test]
    fn media_is_inline_and_everything_else_an_attachment() {
        let inline = disposition("application/pdf", "menu.pdf").to_string();
        assert_eq!(inline, "inline; filename=\"menu.pdf\"");
        let attachment = disposition(OPAQUE, "page.html").to_string();
        assert_eq!(attachment, "attachment; filename=\"page.html\"");
        assert_eq!(disposition("text/plain", "").to_string(), "attachment");
    }

    #[test]
    fn a_name_beyond_ascii_is_sent_both_ways_and_never_breaks_the_header() {
        let value = disposition("application/pdf", "قائمة \"v2\".pdf\r\n").to_string();
        assert_eq!(
            value,
            "inline; filename=\"_____ _v2_.pdf\"; \
             filename*=UTF-8''%D9%82%D8%A7%D8%A6%D9%85%D8%A9%20%22v2%22.pdf"
        );
        assert!(HeaderValue::from_str(&value).is_ok());
    }

    #[test]
    fn a_name_keeps_no_character_that_reorders_or_hides() {
        let value = disposition(OPAQUE, "invoice\u{202E}fdp.exe\u{200B}").to_string();
        assert_eq!(value, "attachment; filename=\"invoicefdp.exe\"");
    }
}
