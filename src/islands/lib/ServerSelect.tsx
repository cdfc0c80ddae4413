// Spec §2: a game with a server list offers its named servers instead of a Server ID field. The
// reseller's and the consumer's order forms both use it.

export interface ServerSelectProps {
  /** Named servers as [label, value], in the order shown. */
  servers: [string, string][];
  /** The chosen server's value, or "". */
  value: string;
  /** Called with the chosen server's value. */
  onChange: (value: string) => void;
}

export function ServerSelect({ servers, value, onChange }: ServerSelectProps) {
  return (
    <label>
      Server
      <select
        name="serverid"
        required
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value="" disabled>Select server</option>
        {servers.map(([label, server]) => <option key={label} value={server}>{label}</option>)}
      </select>
    </label>
  );
}
