/**
 * The admin page kit: a live list page (`ListPage` on `useResourceList`), its table, the
 * confirm-delete question, a form dialog on react-hook-form + zod with its fields, and an
 * attachment field. See `desktop/CONTEXT.md` and the recipe in `docs/new-module.md`.
 */
export { AttachmentField, attachmentForm, attachmentName, useAttachment } from './AttachmentField';
export { ColorPicker, COLOR_PALETTE } from './ColorPicker';
export { ConfirmDialog } from './ConfirmDialog';
export {
  ColorInput,
  FieldRow,
  PasswordInput,
  SelectInput,
  SwitchInput,
  TextInput,
  useChoices,
  type Choice,
} from './fields';
export { FormDialog } from './FormDialog';
export { registerBundles, type Bundles } from './i18n';
export { ListPage, type RecordDialogProps } from './ListPage';
export { PageHeader } from './PageHeader';
export { checkColumn, ResourceTable, STACKED, type Column, type RowAction } from './ResourceTable';
export { SchedulesEditor, schedulesValid } from './SchedulesEditor';
export { removeById, upsertById } from './scroll';
export { PageFrame, ScrollPaper } from './ScrollPaper';
export { useResourceList, type ResourceList, type ResourceSource } from './useResourceList';
export { requiredText, useAdminFieldError } from './validation';
