//! The big inbox's history: customers' names and message texts, English and Arabic, made from a
//! fixed seed so every run stores the same inbox, and the signed webhooks that carry them.

use serde_json::json;

use crate::client::{Business, customer_phone};

/// A word in about one message of 20,000: the rare-word search.
pub const RARE_WORD: &str = "zanzibar";
/// A word in about a fifth of the English messages: the common-word search.
pub const COMMON_WORD: &str = "order";
/// An Arabic word ("thank you") in about a quarter of the Arabic messages.
pub const ARABIC_WORD: &str = "شكرا";
/// A two-letter prefix most English messages hold a word of (the, thanks, this, that, …).
pub const COMMON_PREFIX: &str = "th";

const ENGLISH: &[&str] = &[
    "the",
    "to",
    "and",
    "you",
    "is",
    "my",
    "for",
    "it",
    "this",
    "that",
    "thanks",
    "please",
    "can",
    "have",
    "we",
    "there",
    "when",
    "will",
    "your",
    "hello",
    "hi",
    "delivery",
    "price",
    "size",
    "available",
    "still",
    "today",
    "tomorrow",
    "address",
    "payment",
    "received",
    "refund",
    "ship",
    "box",
    "blue",
    "black",
    "red",
    "small",
    "large",
    "photo",
    "invoice",
    "receipt",
    "week",
    "morning",
    "evening",
    "store",
    "branch",
    "driver",
    "track",
    "number",
    "cancel",
    "change",
    "exchange",
    "color",
    "quality",
    "discount",
    "offer",
    "card",
    "cash",
    "link",
    "time",
    "help",
    "problem",
    "missing",
    "arrived",
    "wrong",
    "great",
    "perfect",
    "sorry",
    "waiting",
    "again",
];
const ARABIC: &[&str] = &[
    "مرحبا",
    "السلام",
    "عليكم",
    "كيف",
    "الحال",
    "أريد",
    "طلب",
    "الطلب",
    "متى",
    "يصل",
    "التوصيل",
    "السعر",
    "كم",
    "المقاس",
    "اللون",
    "أزرق",
    "أسود",
    "متوفر",
    "اليوم",
    "غدا",
    "العنوان",
    "الدفع",
    "استرجاع",
    "المبلغ",
    "الفاتورة",
    "الفرع",
    "المندوب",
    "رقم",
    "الشحنة",
    "إلغاء",
    "تبديل",
    "جودة",
    "خصم",
    "عرض",
    "بطاقة",
    "نقدا",
    "رابط",
    "مساعدة",
    "مشكلة",
    "وصل",
    "خطأ",
    "ممتاز",
    "آسف",
    "انتظر",
    "من",
    "في",
    "على",
    "هل",
    "لو",
    "سمحت",
    "جزاك",
    "الله",
    "خير",
];
const FIRST_NAMES: &[&str] = &[
    "Sara",
    "Omar",
    "Lina",
    "James",
    "Fatima",
    "Noah",
    "Aisha",
    "Daniel",
    "Maryam",
    "Lucas",
    "محمد",
    "نورة",
    "خالد",
    "ريم",
    "عبدالله",
    "هند",
    "يوسف",
    "ليلى",
    "أحمد",
    "سلمى",
];
const LAST_NAMES: &[&str] = &[
    "Ali",
    "Haddad",
    "Smith",
    "Khan",
    "Nasser",
    "Brown",
    "Saleh",
    "Garcia",
    "Mansour",
    "Wilson",
    "الأحمد",
    "العتيبي",
    "الشمري",
    "القحطاني",
    "الحربي",
    "الزهراني",
    "المطيري",
    "الدوسري",
];

/// A small deterministic generator (splitmix64): the same history on every run, no dependency.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// An index in `0..n` leaning towards the start (words early in a list are frequent).
    fn skewed(&mut self, n: usize) -> usize {
        let a = self.below(n);
        let b = self.below(n);
        a.min(b)
    }
}

/// The name customer `n` writes under: a first and last name, English or Arabic.
pub fn customer_name(n: usize) -> String {
    let first = FIRST_NAMES[n % FIRST_NAMES.len()];
    let last = LAST_NAMES[(n / FIRST_NAMES.len()) % LAST_NAMES.len()];
    format!("{first} {last}")
}

/// The text of message `i`: mostly short (2–12 words), a tenth long (up to 60), 60 % English
/// and 40 % Arabic, with the common and rare words at their rates.
pub fn message_text(i: u64) -> String {
    let mut mix = Mix(i.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let words = if mix.below(10) == 0 {
        13 + mix.below(48)
    } else {
        2 + mix.below(11)
    };
    let arabic = mix.below(5) < 2;
    let list = if arabic { ARABIC } else { ENGLISH };
    let mut text: Vec<&str> = (0..words).map(|_| list[mix.skewed(list.len())]).collect();
    let (special, per) = if arabic {
        (ARABIC_WORD, 4)
    } else {
        (COMMON_WORD, 5)
    };
    if mix.below(per) == 0 {
        let at = mix.below(text.len());
        text.insert(at, special);
    }
    if mix.below(20_000) == 0 {
        text.push(RARE_WORD);
    }
    text.join(" ")
}

/// Which customer message `i` of `messages` comes from: customer 0 gets every `stride`-th
/// message (the deep conversation), the others the rest in turn.
pub fn customer_of(i: u64, stride: u64, others: u64) -> usize {
    if i.is_multiple_of(stride) {
        0
    } else {
        (1 + (i - i / stride - 1) % others) as usize
    }
}

/// A signed-webhook body carrying text messages `(customer, wamid, text, unix seconds)`.
pub fn text_webhook(business: &Business, messages: &[(usize, String, String, u64)]) -> String {
    let contacts: Vec<_> = messages
        .iter()
        .map(|(customer, ..)| {
            json!({"profile": {"name": customer_name(*customer)},
                   "wa_id": customer_phone(*customer)})
        })
        .collect();
    let items: Vec<_> = messages
        .iter()
        .map(|(customer, wamid, text, at)| {
            json!({"from": customer_phone(*customer), "id": wamid, "timestamp": at.to_string(),
                   "type": "text", "text": {"body": text}})
        })
        .collect();
    json!({"object": "whatsapp_business_account", "entry": [{"id": "0", "changes": [{
        "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550000000",
                         "phone_number_id": business.phone_number_id},
            "contacts": contacts, "messages": items}}]}]})
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deep_conversation_gets_every_stride_th_message_and_the_rest_go_round() {
        let who: Vec<usize> = (0..8).map(|i| customer_of(i, 4, 3)).collect();
        assert_eq!(who, [0, 1, 2, 3, 0, 1, 2, 3]);
    }

    #[test]
    fn texts_are_the_same_on_every_run_and_hold_the_searched_words() {
        assert_eq!(message_text(7), message_text(7));
        let texts: Vec<String> = (0..5_000).map(message_text).collect();
        assert!(texts.iter().any(|t| t.contains(COMMON_WORD)));
        assert!(texts.iter().any(|t| t.contains(ARABIC_WORD)));
    }
}
