/** Subscription plans (`view_plan`, `add_plan`, `change_plan`, `delete_plan`). */
import SavingsIcon from '@mui/icons-material/Savings';
import { PlanCreate, PlanEdit } from './PlanForms';
import { PlanList } from './PlanList';
import { PlanShow } from './PlanShow';

export default { list: PlanList, show: PlanShow, edit: PlanEdit, create: PlanCreate, icon: SavingsIcon, recordRepresentation: 'title' };
