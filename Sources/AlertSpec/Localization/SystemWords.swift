/// The platform's own words for its standard buttons, in every language alertd serves: clients
/// show OK, Cancel and Not Now the way the system itself writes them.
public enum SystemWords {
    /// Words by locale; a locale not listed falls back through RFC 4647 lookup to English.
    static let table: [String: [SystemText: String]] = [
        "en": [.ok: "OK", .cancel: "Cancel", .notNow: "Not Now"],
        "fr": [.ok: "OK", .cancel: "Annuler", .notNow: "Plus tard"],
        "de": [.ok: "OK", .cancel: "Abbrechen", .notNow: "Nicht jetzt"],
        "es": [.ok: "Aceptar", .cancel: "Cancelar", .notNow: "Ahora no"],
        "it": [.ok: "OK", .cancel: "Annulla", .notNow: "Non ora"],
        "pt": [.ok: "OK", .cancel: "Cancelar", .notNow: "Agora não"],
        "nl": [.ok: "OK", .cancel: "Annuleer", .notNow: "Niet nu"],
        "sv": [.ok: "OK", .cancel: "Avbryt", .notNow: "Inte nu"],
        "pl": [.ok: "OK", .cancel: "Anuluj", .notNow: "Nie teraz"],
        "tr": [.ok: "Tamam", .cancel: "Vazgeç", .notNow: "Şimdi Değil"],
        "ru": [.ok: "ОК", .cancel: "Отменить", .notNow: "Не сейчас"],
        "uk": [.ok: "OK", .cancel: "Скасувати", .notNow: "Не зараз"],
        "ar": [.ok: "حسنًا", .cancel: "إلغاء", .notNow: "ليس الآن"],
        "he": [.ok: "אישור", .cancel: "ביטול", .notNow: "לא עכשיו"],
        "fa": [.ok: "تأیید", .cancel: "لغو", .notNow: "اکنون نه"],
        "ur": [.ok: "ٹھیک ہے", .cancel: "منسوخ کریں", .notNow: "ابھی نہیں"],
        "ja": [.ok: "OK", .cancel: "キャンセル", .notNow: "後で"],
        "ko": [.ok: "확인", .cancel: "취소", .notNow: "나중에"],
        "zh-Hans": [.ok: "好", .cancel: "取消", .notNow: "以后"],
        "zh-Hant": [.ok: "好", .cancel: "取消", .notNow: "稍後"],
    ]

    /// Every locale the table covers, sorted once.
    public static let locales: [String] = table.keys.sorted()

    /// The word in `locale`: the locale's own, else the closest listed (`zh-TW` → zh-Hant), else
    /// English.
    public static func word(_ text: SystemText, locale: String) -> String {
        let match = LocaleMatch.lookup(LocaleNegotiation.canonical(locale), in: locales) ?? "en"
        return table[match]?[text] ?? text.text.defaultValue
    }
}
