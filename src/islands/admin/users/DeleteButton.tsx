// The delete button of a Users list row; the row's confirmation dialog does the deleting.
export interface DeleteButtonProps {
  /** Who the row is, for the button's accessible name ("Delete Eve Reseller"). */
  name: string;
  /** Opens the confirmation. */
  onClick: () => void;
}

export function DeleteButton({ name, onClick }: DeleteButtonProps) {
  return (
    <button
      type="button"
      class="btn-danger au-small"
      aria-label={`Delete ${name}`}
      onClick={(e) => {
        // The row itself may open something on click (the Resellers list opens edit).
        e.stopPropagation();
        onClick();
      }}
    >
      Delete
    </button>
  );
}
