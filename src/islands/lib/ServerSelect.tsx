// Spec §2: a game with a server list offers its named servers instead of a Server ID field. The
// reseller's and the consumer's order forms both use it.

export interface ServerSelectProps {
  /** Named servers as [label, value], in the order shown. */
  servers: [string, string][];
  /** The chosen server's value, or "". */
  value: string;
  /** Called with the chosen server's value. */
  onChange: (value: string) => void;
  /** Why the form was not sent (no server chosen), shown under the dropdown; none by default. */
  problem?: string;
}

export function ServerSelect({ servers, value, onChange, problem }: ServerSelectProps) {
  return (
    <label>
      Server
      <select
        name="serverid"
        required
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? "serverid-problem" : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value="" disabled>Select server</option>
        {servers.map(([label, server]) => <option key={label} value={server}>{label}</option>)}
      </select>
      {problem && (
        <span id="serverid-problem" class="error ct-field-error" role="alert">{problem}</span>
      )}
    </label>
  );
}
