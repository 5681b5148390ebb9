import AlertSpec

/// Critical Moments alert configs (docs.criticalmoments.io): named actions, at the top level or
/// under `actions.namedActions`, whose entries of `"actionType": "alert"` become alerts. The
/// alert's fields sit in `actionData` (or inline, next to `actionType`):
///
/// ```json
/// {"actions": {"namedActions": {
///   "rateApp": {"actionType": "alert", "actionData": {
///     "title": "Enjoying the app?", "style": "large", "showCancelButton": true,
///     "customButtons": [{"label": "Rate it", "actionName": "openStore", "style": "primary"}]}}}}}
/// ```
///
/// Buttons, in order: the custom buttons (ids `custom1`, `custom2`, …; `style` default,
/// destructive or primary), then the standard OK (`showOkButton`, default true; id `ok`), then
/// the standard Cancel (`showCancelButton`, default false; id `cancel`). One button at most is
/// primary, as the SDK decides (`CMAlert.m`): the last custom button styled primary, unless OK
/// shows beside other buttons, which then takes it. An `actionName` (`okButtonActionName` for
/// OK) naming another alert of the same file becomes a `next` action, any other an `event`;
/// none dismisses. An action's `condition` and `fallback` are the device's business: kept as
/// warnings (a `fallback` must name an action of the file). Actions of other types are skipped
/// with a warning. Errors point into the entry: `/actionData/title`.
enum CriticalMomentsConfig {
    static let alertFields: Set<String> = [
        "title", "message", "style", "showOkButton", "okButtonActionName", "showCancelButton", "customButtons",
    ]
    static let buttonFields: Set<String> = ["label", "actionName", "style"]
    /// Members of a named action beside its type and data, which the device evaluates.
    static let containerFields: Set<String> = ["condition", "fallback"]

    static func read(
        _ root: JSONTree, catalog: String, into problems: inout ProblemList
    ) -> [(type: String, template: SpecTemplate)] {
        let actions: [String: JSONTree]
        // Under namedActions every member must be an action; at the top level, other members
        // (a config's `configVersion`, say) are skipped.
        let strict: Bool
        if let named = root["actions"]?["namedActions"] {
            guard let object = named.object else {
                problems.error(
                    CatalogProblem.none, "/actions/namedActions", "invalid-type",
                    "\"namedActions\" must be an object of actions by name.")
                return []
            }
            (actions, strict) = (object, true)
        } else {
            (actions, strict) = (root.object ?? [:], false)
        }

        var alerts: [(name: String, fields: [String: JSONTree])] = []
        var actionNames: [String: String] = [:]
        for (name, entry) in actions.sorted(by: { $0.key < $1.key }) {
            guard let fields = entry.object, let actionType = fields["actionType"] else {
                if strict {
                    problems.error(name, "", "invalid-action", "A named action must be an object with an \"actionType\".")
                } else {
                    problems.warn(name, "", "not-an-action", "This is not a named action (no \"actionType\"); skipped.")
                }
                continue
            }
            guard let type = actionType.string else {
                problems.error(name, "/actionType", "invalid-type", "\"actionType\" must be a string, not \(actionType.typeName).")
                continue
            }
            actionNames[name] = type
            guard type == "alert" else {
                problems.warn(name, "/actionType", "skipped-action", "\"\(type)\" actions are not alerts; skipped.")
                continue
            }
            alerts.append((name, fields))
        }
        let alertNames = Set(alerts.map(\.name))
        var templates: [(type: String, template: SpecTemplate)] = []
        for (name, fields) in alerts {
            var entry = EntryReader(name: name, catalog: catalog, alertNames: alertNames, actionNames: actionNames, problems: problems)
            if let template = entry.template(from: fields) { templates.append((name, template)) }
            problems = entry.problems
        }
        return templates
    }
}

/// Turns one alert entry into a spec template, collecting the entry's problems.
private struct EntryReader {
    let name: String
    let catalog: String
    let alertNames: Set<String>
    /// Every named action of the file, alert or not, with its type: what a `fallback` may name.
    let actionNames: [String: String]
    var problems: ProblemList
    /// Where the alert's fields are: `/actionData`, or `` when they sit next to `actionType`.
    var base = ""

    mutating func template(from fields: [String: JSONTree]) -> SpecTemplate? {
        var data = fields
        data["actionType"] = nil
        // `condition` and `fallback` belong to the named action, beside `actionData`.
        for key in CriticalMomentsConfig.containerFields { data[key] = nil }
        readCondition(fields)
        readFallback(fields)
        if let actionData = fields["actionData"] {
            guard let object = actionData.object else {
                problems.error(name, "/actionData", "invalid-type", "\"actionData\" must be an object, not \(actionData.typeName).")
                return nil
            }
            for key in data.keys.sorted() where key != "actionData" {
                problems.warn(name, "/" + JSONPointer.escape(key), "unknown-field", "\"\(key)\" is not a field of a named action; ignored.")
            }
            (data, base) = (object, "/actionData")
        }
        for key in data.keys.sorted() where !CriticalMomentsConfig.alertFields.contains(key) {
            problems.warn(
                name, base + "/" + JSONPointer.escape(key), "unknown-field",
                "\"\(key)\" is not a field of a Critical Moments alert; ignored.")
        }

        var map = PointerMap()
        map.map("", to: base)
        var spec: [String: JSONTree] = ["kind": .string("alert")]
        for field in ["title", "message"] {
            map.map("/" + field, to: base + "/" + field)
            if let text = string(data, field, at: base) { spec[field] = .string(text) }
        }
        map.map("/style", to: base + "/style")
        spec["style"] = .string(choice(data, "style", at: base, among: ["dialog", "large"]) ?? "dialog")

        var actions: [JSONTree] = []
        let buttons = customButtons(data)
        for (index, button) in buttons {
            let at = "\(base)/customButtons/\(index)"
            let spec = "/actions/\(actions.count)"
            map.map(spec, to: at)
            map.map(spec + "/label", to: at + "/label")
            map.map(spec + "/role", to: at + "/style")
            map.map(spec + "/action", to: at + "/actionName")
            actions.append(action(id: "custom\(index + 1)", label: button.label, role: button.role, actionName: button.actionName))
        }
        let showOK = bool(data, "showOkButton", at: base) ?? true
        let okActionName = string(data, "okButtonActionName", at: base)
        let showCancel = bool(data, "showCancelButton", at: base) ?? false
        // The SDK makes each primary custom button preferred in turn, then OK when other buttons
        // show: the last of them is the one primary, the others are shown as default.
        let okIsPrimary = showOK && (showCancel || !buttons.isEmpty)
        let lastCustomPrimary = buttons.lastIndex { $0.button.role == "primary" }
        let winner = okIsPrimary || lastCustomPrimary == nil
            ? "OK, which comes after the custom buttons" : "custom button \(buttons[lastCustomPrimary!].index + 1)"
        for position in buttons.indices where buttons[position].button.role == "primary" {
            guard okIsPrimary || position != lastCustomPrimary else { continue }
            actions[position] = action(
                id: "custom\(buttons[position].index + 1)", label: buttons[position].button.label, role: "default",
                actionName: buttons[position].button.actionName)
            problems.warn(
                name, "\(base)/customButtons/\(buttons[position].index)/style", "primary-demoted",
                "Critical Moments gives the primary treatment to the last primary button, \(winner); this one is shown as default.")
        }
        if showOK {
            map.map("/actions/\(actions.count)", to: base + "/showOkButton")
            map.map("/actions/\(actions.count)/action", to: base + "/okButtonActionName")
            actions.append(action(
                id: "ok", label: SystemText.ok.text.defaultValue, role: okIsPrimary ? "primary" : "default", actionName: okActionName))
        } else if okActionName != nil {
            problems.warn(name, base + "/okButtonActionName", "unused-field", "There is no OK button (showOkButton is false); ignored.")
        }
        if showCancel {
            map.map("/actions/\(actions.count)", to: base + "/showCancelButton")
            actions.append(action(id: "cancel", label: SystemText.cancel.text.defaultValue, role: "cancel", actionName: nil))
        }
        // No button but Cancel: only showing OK (or adding a custom button) fixes it.
        map.map("/actions", to: base + "/showOkButton")
        spec["actions"] = .array(actions)
        return SpecTemplate(literal: .object(spec), pointers: map)
    }

    private typealias Button = (label: String, actionName: String?, role: String)

    /// `condition`: a Critical Moments condition, evaluated by its SDK on the device. alertd
    /// cannot evaluate it, so it says so and serves the alert as it is.
    private mutating func readCondition(_ fields: [String: JSONTree]) {
        guard let condition = string(fields, "condition", at: "") else { return }
        problems.warn(
            name, "/condition", "device-condition",
            "The condition \"\(condition)\" of \"\(name)\" is evaluated on the device by Critical Moments; alertd serves"
                + " the alert whenever it is enqueued: the backend decides when.")
    }

    /// `fallback`: the action Critical Moments performs on the device when it cannot perform
    /// this one. It must name an action of the file; alertd never performs it by itself.
    private mutating func readFallback(_ fields: [String: JSONTree]) {
        guard let fallback = string(fields, "fallback", at: "") else { return }
        guard let type = actionNames[fallback], fallback != name else {
            problems.error(
                name, "/fallback", "unknown-fallback",
                fallback == name
                    ? "The fallback of \"\(name)\" is \"\(name)\" itself; name another action of this file."
                    : "The fallback \"\(fallback)\" of \"\(name)\" names no action of this file.")
            return
        }
        let served = type == "alert"
            ? "alertd serves \"\(fallback)\" only when it is enqueued itself"
            : "alertd does not serve \"\(fallback)\" (a \(type) action, not an alert)"
        problems.warn(
            name, "/fallback", "device-fallback",
            "\"\(name)\" falls back to \"\(fallback)\" on the device, when Critical Moments cannot perform it; alertd always"
                + " serves \"\(name)\" as it is, and \(served).")
    }

    /// The custom buttons that could be read, with their index in the file. A missing or
    /// mistyped label is reported here and left empty (the validator then says nothing more).
    private mutating func customButtons(_ data: [String: JSONTree]) -> [(index: Int, button: Button)] {
        guard let list = data["customButtons"] else { return [] }
        guard let items = list.array else {
            problems.error(name, base + "/customButtons", "invalid-type", "\"customButtons\" must be an array, not \(list.typeName).")
            return []
        }
        var buttons: [(index: Int, button: Button)] = []
        for (index, item) in items.enumerated() {
            let at = "\(base)/customButtons/\(index)"
            guard let fields = item.object else {
                problems.error(name, at, "invalid-type", "A custom button must be an object, not \(item.typeName).")
                continue
            }
            for key in fields.keys.sorted() where !CriticalMomentsConfig.buttonFields.contains(key) {
                problems.warn(name, at + "/" + JSONPointer.escape(key), "unknown-field", "\"\(key)\" is not a field of a custom button; ignored.")
            }
            if fields["label"] == nil {
                problems.error(name, at + "/label", "missing-field", "A custom button needs a label.")
            }
            let label = string(fields, "label", at: at) ?? ""
            let actionName = string(fields, "actionName", at: at)
            let role = choice(fields, "style", at: at, among: ["default", "destructive", "primary"]) ?? "default"
            buttons.append((index, (label, actionName, role)))
        }
        return buttons
    }

    private func action(id: String, label: String, role: String, actionName: String?) -> JSONTree {
        let action: [String: JSONTree]
        switch actionName {
        case nil: action = ["type": .string("dismiss")]
        case let name? where alertNames.contains(name): action = ["type": .string("next"), "alert": .string("\(catalog)/\(name)")]
        case let name?: action = ["type": .string("event"), "name": .string(name)]
        }
        return .object(["id": .string(id), "label": .string(label), "role": .string(role), "action": .object(action)])
    }

    // MARK: Fields

    private mutating func string(_ fields: [String: JSONTree], _ key: String, at pointer: String) -> String? {
        guard let value = fields[key] else { return nil }
        guard let text = value.string else {
            problems.error(name, pointer + "/" + key, "invalid-type", "\"\(key)\" must be a string, not \(value.typeName).")
            return nil
        }
        return text
    }

    private mutating func bool(_ fields: [String: JSONTree], _ key: String, at pointer: String) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard let flag = value.bool else {
            problems.error(name, pointer + "/" + key, "invalid-type", "\"\(key)\" must be true or false, not \(value.described).")
            return nil
        }
        return flag
    }

    private mutating func choice(_ fields: [String: JSONTree], _ key: String, at pointer: String, among allowed: [String]) -> String? {
        guard let value = fields[key] else { return nil }
        guard let text = value.string, allowed.contains(text) else {
            problems.error(
                name, pointer + "/" + key, "invalid-value",
                "\"\(key)\" must be \(allowed.dropLast().joined(separator: ", ")) or \(allowed.last!), not \(value.described).")
            return nil
        }
        return text
    }
}
