// Settings 'Store Policies': the Terms of Service, Privacy Policy and Refund Policy buyers read
// before paying, and the company behind the shop. Plain text; the consumer footer links each page
// once it has text, and shows the company once it has a name.
import {
  type CompanyDetails,
  POLICY_PAGES,
  type PolicyKey,
  type StorePolicies,
} from "../../../shared/store-policies.ts";
import { callApi } from "../../lib/api.ts";
import { useSettingsSave, useSettingsValue } from "./use-settings-save.tsx";

const COMPANY_FIELDS: { name: keyof CompanyDetails; label: string; type: string }[] = [
  { name: "name", label: "Company Name", type: "text" },
  { name: "registrationNumber", label: "Registration Number", type: "text" },
  { name: "address", label: "Address", type: "text" },
  { name: "email", label: "Contact Email", type: "email" },
];

export function StorePoliciesForm() {
  const { value: policies, setValue: setPolicies, ready } = useSettingsValue<StorePolicies>(
    "/api/settings/store-policies",
    {
      terms: "",
      privacy: "",
      refunds: "",
      company: { name: "", registrationNumber: "", address: "", email: "" },
    },
  );
  const { busy, save, message } = useSettingsSave();

  const setPolicy = (key: PolicyKey, text: string) => setPolicies({ ...policies, [key]: text });
  const setCompany = (name: keyof CompanyDetails, value: string) =>
    setPolicies({ ...policies, company: { ...policies.company, [name]: value } });

  const submit = (e: Event) => {
    e.preventDefault();
    save(async () =>
      setPolicies(await callApi<StorePolicies>("PUT", "/api/settings/store-policies", policies))
    );
  };

  return (
    <form
      class="panel ap-section ap-policies"
      onSubmit={submit}
      aria-labelledby="ap-policies-title"
    >
      <h3 id="ap-policies-title">Store Policies</h3>
      <p class="muted" id="ap-policies-hint">
        Plain text: leave a blank line between paragraphs, and start a line with ## for a heading.
        The shop's footer links each page once it has text; an empty page is not shown (the demo
        shows a placeholder instead).
      </p>
      {POLICY_PAGES.map(({ key, slug, title }) => (
        <div key={key} class="ap-policy">
          <div class="ap-policy-head">
            <label for={`ap-policy-${key}`}>{title}</label>
            <a href={`/consumers/${slug}`} target="_blank" rel="noopener">
              View {title}
            </a>
          </div>
          <textarea
            id={`ap-policy-${key}`}
            rows={6}
            maxLength={30_000}
            aria-describedby="ap-policies-hint"
            value={policies[key]}
            disabled={!ready}
            onInput={(e) => setPolicy(key, e.currentTarget.value)}
          />
        </div>
      ))}
      <h4>Company Details</h4>
      <p class="muted">Shown in the footer of every shop page once the company has a name.</p>
      <div class="ap-inline">
        {COMPANY_FIELDS.map(({ name, label, type }) => (
          <div key={name}>
            <label for={`ap-company-${name}`}>{label}</label>
            <input
              id={`ap-company-${name}`}
              type={type}
              value={policies.company[name]}
              disabled={!ready}
              maxLength={name === "address" ? 500 : 200}
              onInput={(e) => setCompany(name, e.currentTarget.value)}
            />
          </div>
        ))}
      </div>
      <p>
        <button type="submit" class="btn" disabled={busy || !ready}>Save</button>
      </p>
      {message}
    </form>
  );
}
