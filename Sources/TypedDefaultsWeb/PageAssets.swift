#if Web
    /// The page, its script and its style, served from memory: nothing is read from disk, and the
    /// page needs no network but the server's. The script builds every element with the DOM and
    /// sets every key, title, value and file name as text (`textContent`, `value`), never as
    /// markup.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    enum PageAssets {
        static func html(title: String) -> String {
            // The title is the suite's name: escaped, as everything else shown is set by the script.
            let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>\(escaped): settings</title>
                <link rel="stylesheet" href="page.css">
                <script src="page.js" defer></script>
                </head>
                <body>
                <header><h1 id="suite">\(escaped)</h1><p id="status" role="status">Loading…</p></header>
                <main id="settings"></main>
                </body>
                </html>
                """
        }

        static let style = """
            body { font: 15px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 46rem; padding: 1rem; color: #222; }
            header { border-bottom: 1px solid #ccc; margin-bottom: 1rem; }
            h1 { font-size: 1.3rem; margin: 0.2rem 0; overflow-wrap: anywhere; }
            #status { color: #666; margin: 0.2rem 0 0.6rem; }
            .row { border-bottom: 1px solid #eee; padding: 0.7rem 0; display: grid; gap: 0.3rem; }
            .row h2 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
            .key, .meta { color: #666; font-size: 0.85rem; overflow-wrap: anywhere; }
            .source { font-size: 0.75rem; border-radius: 0.6rem; padding: 0 0.5rem; margin-left: 0.4rem; background: #eef; }
            .source.stored { background: #dfd; }
            .source.library { background: #fed; }
            .source.managed { background: #eee; }
            .origin, .bounds { color: #666; font-size: 0.85rem; overflow-wrap: anywhere; }
            .managed-note { margin: 0; font-size: 0.85rem; overflow-wrap: anywhere; }
            .control { display: flex; align-items: center; gap: 0.6rem; }
            .range { flex: none; color: #666; font-size: 0.85rem; white-space: nowrap; }
            .reserved .value { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
            .control input[type=text], .control input[type=number], .control input[type=password], .control select, .control textarea { width: 100%; box-sizing: border-box; font: inherit; }
            .control textarea { font-family: ui-monospace, monospace; min-height: 4rem; }
            .alert { color: #a00; margin: 0; }
            .alert:empty { display: none; }
            button { justify-self: start; }
            """

        static let script = #"""
            "use strict";
            const main = document.getElementById("settings");
            const status = document.getElementById("status");

            function api(path) { return new URL(path, document.baseURI); }

            function element(tag, properties, children) {
                const made = document.createElement(tag);
                for (const [name, value] of Object.entries(properties || {})) {
                    if (name === "text") { made.textContent = value; }
                    else if (name === "dataset") { Object.assign(made.dataset, value); }
                    else { made.setAttribute(name, value); }
                }
                for (const child of children || []) { made.append(child); }
                return made;
            }

            // The value in the exact JSON form, as text for a text field or editor.
            function shown(row) {
                const value = row.value;
                if (row.control === "json" && typeof value === "string") { return value; }
                if (value && typeof value === "object" && "$date" in value) { return value["$date"]; }
                return row.control === "json" ? JSON.stringify(value, null, 2) : (value === null ? "" : String(value));
            }

            function control(row) {
                const name = row.key;
                switch (row.control) {
                case "flag": {
                    const box = element("input", { type: "checkbox", name: name });
                    box.checked = row.value === true;
                    return box;
                }
                case "choice": {
                    const select = element("select", { name: name });
                    let found = false;
                    // Only the options the administrator allows, each keeping its index in the schema's list.
                    const allowed = row.bounds && row.bounds.options ? new Set(row.bounds.options) : null;
                    row.options.forEach((option, index) => {
                        if (allowed && !allowed.has(index)) { return; }
                        const choice = element("option", { value: String(index), text: option.title });
                        if (JSON.stringify(option.value) === JSON.stringify(row.value)) { choice.selected = true; found = true; }
                        select.append(choice);
                    });
                    if (!found) {
                        // Stored by someone else, outside the options: shown as it is, so that any
                        // option picked is a change.
                        const stored = element("option", { value: "", text: JSON.stringify(row.value) + " (not an option)" });
                        stored.disabled = true;
                        stored.selected = true;
                        select.prepend(stored);
                    }
                    return select;
                }
                case "number": case "integer": case "float": {
                    const input = element("input", { type: "number", name: name });
                    if (row.range) {
                        input.min = String(row.range.min); input.max = String(row.range.max); input.step = String(row.range.step);
                    } else {
                        input.step = row.control === "integer" ? "1" : "any";
                    }
                    // The administrator's range, inside the schema's.
                    if (row.bounds && "min" in row.bounds) {
                        input.min = String(row.range ? Math.max(row.range.min, row.bounds.min) : row.bounds.min);
                    }
                    if (row.bounds && "max" in row.bounds) {
                        input.max = String(row.range ? Math.min(row.range.max, row.bounds.max) : row.bounds.max);
                    }
                    input.value = row.value === null ? "" : String(row.value);
                    return input;
                }
                case "json": {
                    const editor = element("textarea", { name: name, spellcheck: "false" });
                    editor.value = shown(row);
                    return editor;
                }
                default: {
                    const input = element("input", { type: "text", name: name });
                    input.value = shown(row);
                    return input;
                }
                }
            }

            // The request body for what the control holds: {"value": …} in the exact JSON form.
            function body(row, input) {
                switch (row.control) {
                case "flag": return JSON.stringify({ value: input.checked });
                case "choice": return JSON.stringify({ value: row.options[Number(input.value)].value });
                case "number": case "integer": case "float": {
                    const number = Number(input.value);
                    if (input.value.trim() === "" || !Number.isFinite(number)) { throw new Error("not a number"); }
                    if (row.control === "integer" || (row.range && Number.isInteger(row.range.step) && Number.isInteger(number))) {
                        return '{"value": ' + String(Math.trunc(number)) + "}";
                    }
                    return JSON.stringify({ value: number });
                }
                case "date": return JSON.stringify({ value: { "$date": input.value } });
                case "json": {
                    JSON.parse(input.value);  // refused here when it is no JSON at all
                    // A Codable value is stored as its JSON text: a string.
                    return typeof row.value === "string" || row.shape
                        ? JSON.stringify({ value: input.value }) : '{"value": ' + input.value + "}";
                }
                default: return JSON.stringify({ value: input.value });
                }
            }

            // What the row says of its default: the schema's, or that the schema does not declare
            // the key (a declared optional's default, nil, is a default like any other).
            function meta(row) {
                if (!row.declared) { return "not declared"; }
                const given = row.formattedDefault || ("default" in row ? JSON.stringify(row.default) : "none given");
                return "default: " + given + (row.shape ? " · " + row.shape : "");
            }

            // The badge of where a row's value came from: its class and its text.
            const BADGES = {
                locked: ["source managed", "managed"], user: ["source stored", "stored"],
                administratorDefault: ["source", "administrator's default"], codeDefault: ["source", "default"],
            };

            function render(row) {
                const heading = element("h2", {}, [document.createTextNode(row.title)]);
                const key = element("div", { class: "key", text: row.key + (row.type ? " · " + row.type : "") });
                const info = row.info ? element("div", { class: "info", text: row.info }) : document.createTextNode("");
                if (row.reserved) {
                    // The library's own key (the count of migration steps run): shown, never changed,
                    // as changing or removing it would run migration steps again. No control, no reset.
                    heading.append(element("span", { class: "source library", text: "library" }));
                    return element("section", { class: "row reserved", dataset: { key: row.key } }, [
                        heading, key, info,
                        element("div", { class: "control" }, [element("code", { class: "value", text: shown(row) })]),
                        element("div", { class: "meta", text: "kept by the TypedDefaults library: shown, not changed here" }),
                    ]);
                }
                const alert = element("p", { class: "alert", role: "alert" });
                if (row.control === "secret") { return renderSecret(row, heading, key, info, alert); }
                const input = control(row);
                const badge = BADGES[row.source] || ["source", row.source];
                heading.append(element("span", { class: badge[0], text: badge[1] }));
                const reset = element("button", { type: "button", text: "Reset to default" });
                const field = element("div", { class: "control" }, [input]);
                // The range as a refusal names it ("0.0 to 1.0, step 0.1").
                if (row.range) { field.append(element("span", { class: "range", text: row.range.text })); }
                const parts = [heading, key, info, field];
                if (row.locked) {
                    // Read-only: the server refuses a change (403) whatever sends it.
                    input.disabled = true;
                    reset.disabled = true;
                    parts.push(element("p", { class: "managed-note" }, [
                        element("span", { text: "Managed by your administrator" }), " ",
                        element("code", { class: "lock-file", text: row.lockedBy }),
                    ]));
                }
                if (row.bounds) {
                    parts.push(element("div", { class: "bounds", text: "your administrator allows " + row.bounds.text + " (" + row.bounds.source + ")" }));
                }
                parts.push(element("div", { class: "origin", text: "value: " + row.sourceText }));
                parts.push(element("div", { class: "meta", text: meta(row) }), alert, reset);
                const made = element("section", { class: "row", dataset: { key: row.key, locked: String(row.locked) } }, parts);
                input.addEventListener("change", () => save(row, input, alert));
                reset.addEventListener("click", () => send(row.key, "DELETE", null, alert));
                return made;
            }

            // A secret: a write-only field. The page never receives its value, only whether the
            // keyring holds one; what is typed is sent once, on change, and the field empties.
            function renderSecret(row, heading, key, info, alert) {
                const isSet = row.secret === "set";
                heading.append(element("span", { class: isSet ? "source stored" : "source", text: "secret: " + row.secret }));
                const input = element("input", {
                    type: "password", name: row.key, autocomplete: "new-password",
                    placeholder: isSet ? "type a new one to replace it" : "type it to store it",
                });
                const remove = element("button", { type: "button", text: "Remove from the keyring" });
                const note = "kept in the system's keyring, never shown" + (row.stored ? " · a copy in clear is in the suite" : "");
                const made = element("section", { class: "row secret", dataset: { key: row.key } }, [
                    heading, key, info, element("div", { class: "control" }, [input]),
                    element("div", { class: "meta", text: note }), alert, remove,
                ]);
                input.addEventListener("change", () => {
                    if (input.value === "") { return; }
                    // Marked a secret: the server refuses it should the key be a secret no longer.
                    const payload = JSON.stringify({ value: input.value, secret: true });
                    input.value = "";
                    send(row.key, "PUT", payload, alert);
                });
                remove.addEventListener("click", () => send(row.key, "DELETE", null, alert));
                return made;
            }

            function rowElement(key) {
                for (const section of main.children) { if (section.dataset.key === key) { return section; } }
                return null;
            }

            function replace(row) {
                const old = rowElement(row.key);
                const fresh = render(row);
                if (old) { old.replaceWith(fresh); } else { main.append(fresh); }
            }

            async function send(key, method, payload, alert) {
                alert.textContent = "";
                try {
                    const response = await fetch(api("api/settings/" + encodeURIComponent(key)), {
                        method: method, headers: { "Content-Type": "application/json" }, body: payload,
                    });
                    const answer = await response.json();
                    if (!response.ok) { alert.textContent = answer.error || ("refused: " + response.status); return; }
                    replace(answer);
                } catch (error) {
                    alert.textContent = String(error.message || error);
                }
            }

            function save(row, input, alert) {
                let payload;
                try { payload = body(row, input); } catch (error) { alert.textContent = "not saved: " + error.message; return; }
                send(row.key, "PUT", payload, alert);
            }

            async function load() {
                // The token came in the address, once: the cookie carries it from here, and the
                // address bar, the history and a screenshot need not show it.
                if (new URLSearchParams(location.search).has("token")) { history.replaceState(null, "", location.pathname); }
                const response = await fetch(api("api/settings"));
                if (!response.ok) {
                    const answer = await response.json().catch(() => ({}));
                    status.textContent = "Cannot load the settings: " + (answer.error || response.status);
                    return;
                }
                const answer = await response.json();
                main.replaceChildren(...answer.settings.map(render));
                status.textContent = answer.settings.length + " settings · live";
                const events = new EventSource(api("api/events"));
                events.addEventListener("change", (event) => {
                    const row = JSON.parse(event.data);
                    const current = rowElement(row.key);
                    // Not while its control is being edited, unless a lock came or went: then at once.
                    const editing = current && current.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON";
                    if (editing && current.dataset.locked === String(row.locked)) { return; }
                    replace(row);
                });
                events.onerror = () => { status.textContent = "Reconnecting…"; };
                events.onopen = () => { status.textContent = answer.settings.length + " settings · live"; };
            }

            load();
            """#
    }
#endif
